// Stand-in for `vllm serve` (see ./vllm).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { flags, pyRepr, stamp } from './fake-common.mjs';

export function serve(rest) {
  const f = flags(rest);
  const model = f._[0] ?? 'facebook/opt-125m';
  const port = Number(f.port ?? 8000);
  const host = f.host ?? '127.0.0.1';
  const mode = f.fake_mode ?? process.env.FAKE_VLLM_MODE ?? 'ready';
  const api = `(APIServer pid=${process.pid}) INFO ${stamp()}`;
  const args = { model_tag: model, host, port, model };
  for (const [k, v] of Object.entries(f)) {
    if (k === '_' || k === 'host' || k === 'port' || k.startsWith('fake_')) continue;
    args[k] = k === 'speculative_config' ? JSON.parse(v) : v;
  }
  console.log(`INFO ${stamp()} [__init__.py:216] Automatically detected platform cuda.`);
  console.log(`${api} [api_server.py:1896] vLLM API server version 0.11.0`);
  console.log(`${api} [utils.py:233] non-default args: ${pyRepr(args)}`);
  console.log(`${api} [model.py:547] Resolved architecture: LlamaForCausalLM`);
  console.log(`${api} [model.py:1510] Using max model len 8192`);
  const engine = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const core = `(EngineCore_DP0 pid=${engine.pid}) INFO ${stamp()}`;
  console.log(`${core} [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='${model}', speculative_config=${args.speculative_config ? pyRepr(args.speculative_config) : 'None'}, seed=0`);
  const stop = (code) => { engine.kill('SIGKILL'); process.exit(code); };
  if (mode === 'crash') {
    console.log(`(EngineCore_DP0 pid=${engine.pid}) ERROR ${stamp()} [core.py:708] EngineCore failed to start.`);
    console.log('Traceback (most recent call last):');
    console.log('  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 699, in run_engine_core');
    console.log('    engine_core = EngineCoreProc(*args, **kwargs)');
    console.log('  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_worker.py", line 263, in determine_available_memory');
    console.log('    self.model_runner.profile_run()');
    console.log('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.20 GiB is free.');
    console.log(`${api} [api_server.py:1961] RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}`);
    setTimeout(() => stop(1), 100);
    return;
  }
  process.on('SIGTERM', () => {
    if (f.fake_ignore_sigterm) { console.log(`${api} [launcher.py:99] SIGTERM ignored (fake)`); return; }
    console.log(`${api} [launcher.py:99] Shutting down FastAPI HTTP server.`);
    stop(0);
  });
  process.on('SIGINT', () => stop(0));
  if (mode === 'hang') {
    console.log(`${core} [gpu_model_runner.py:2602] Loading model from scratch...`);
    setInterval(() => {}, 1000);
    return;
  }
  let requests = 0;
  const server = http.createServer((req, res) => {
    console.log(`(APIServer pid=${process.pid}) INFO:     127.0.0.1:${req.socket.remotePort} - "${req.method} ${req.url} HTTP/1.1" 200 OK`);
    if (req.url === '/health') { res.writeHead(200); res.end(); return; }
    if (req.url === '/v1/models') {
      requests++;
      console.log(`${api} [loggers.py:123] Engine 000: Avg prompt throughput: ${(requests * 812.4).toFixed(1)} tokens/s, Avg generation throughput: ${(requests * 97.3).toFixed(1)} tokens/s, Running: ${requests} reqs, Waiting: 0 reqs, GPU KV cache usage: ${(requests * 1.7).toFixed(1)}%, Prefix cache hit rate: 0.0%`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', owned_by: 'vllm', max_model_len: 8192 }] }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  const delay = Number(process.env.FAKE_VLLM_READY_DELAY_MS ?? 100);
  setTimeout(() => {
    server.listen(port, host, () => {
      console.log(`${api} [api_server.py:1971] Starting vLLM API server 0 on http://${host}:${port}`);
      console.log(`(APIServer pid=${process.pid}) INFO:     Started server process [${process.pid}]`);
      console.log(`(APIServer pid=${process.pid}) INFO:     Waiting for application startup.`);
      console.log(`(APIServer pid=${process.pid}) INFO:     Application startup complete.`);
    });
  }, delay);
}
