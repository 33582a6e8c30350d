import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../src/analyze/bootstrap.js';

export interface CorpusPlan {
  readonly dir: string;
  readonly resultFiles: number;
  readonly serverLogs: number;
  readonly serverLogBytes: number;
}

/** Writes the deterministic benchmark corpus: small result files in mixed formats + big server logs. */
export function writeCorpus(plan: CorpusPlan): { resultsDir: string; logsDir: string } {
  const rand = seededRandom(20261121);
  const resultsDir = path.join(plan.dir, 'results');
  const logsDir = path.join(plan.dir, 'server-logs');
  for (let i = 0; i < plan.resultFiles; i++) {
    const dir = path.join(resultsDir, `sweep-${i % 40}`, `variant-${i % 7}`);
    mkdirSync(dir, { recursive: true });
    const c = 2 ** (i % 8);
    if (i % 3 === 0) writeFileSync(path.join(dir, `bench-c${c}-${i}.json`), resultJson(rand, c));
    else if (i % 3 === 1) writeFileSync(path.join(dir, `bench-c${c}-${i}.log`), resultBlock(rand, c));
    else writeFileSync(path.join(dir, `notes-${i}.md`), `## Run ${i}\n\n\`\`\`\n# c=${c}\n${resultBlock(rand, c)}\`\`\`\n`);
  }
  mkdirSync(logsDir, { recursive: true });
  for (let j = 0; j < plan.serverLogs; j++) writeServerLog(path.join(logsDir, `serve-${j}.log`), plan.serverLogBytes, rand);
  return { resultsDir, logsDir };
}

const f2 = (x: number) => x.toFixed(2);
const row = (label: string, value: string) => `${label.padEnd(40)} ${value.padEnd(10)}\n`;

function resultBlock(rand: () => number, c: number): string {
  const n = c * 10;
  const dur = 10 + rand() * 80;
  return (
    `Traffic request rate: inf\nBurstiness factor: 1.0 (Poisson process)\nMaximum request concurrency: ${c}\n` +
    '============ Serving Benchmark Result ============\n' +
    row('Successful requests:', String(n)) + row('Failed requests:', '0') + row('Maximum request concurrency:', String(c)) +
    row('Benchmark duration (s):', f2(dur)) + row('Total input tokens:', String(n * 1024)) + row('Total generated tokens:', String(n * 256)) +
    row('Request throughput (req/s):', f2(n / dur)) + row('Output token throughput (tok/s):', f2((n * 256) / dur)) +
    row('Total token throughput (tok/s):', f2((n * 1280) / dur)) +
    '---------------Time to First Token----------------\n' + row('Mean TTFT (ms):', f2(20 + rand() * 300)) + row('Median TTFT (ms):', f2(20 + rand() * 200)) + row('P99 TTFT (ms):', f2(100 + rand() * 900)) +
    '-----Time per Output Token (excl. 1st token)------\n' + row('Mean TPOT (ms):', f2(5 + rand() * 30)) + row('Median TPOT (ms):', f2(5 + rand() * 30)) + row('P99 TPOT (ms):', f2(10 + rand() * 60)) +
    '---------------Inter-token Latency----------------\n' + row('Mean ITL (ms):', f2(5 + rand() * 30)) + row('Median ITL (ms):', f2(5 + rand() * 30)) + row('P99 ITL (ms):', f2(10 + rand() * 90)) +
    '='.repeat(50) + '\n'
  );
}

function resultJson(rand: () => number, c: number): string {
  const n = c * 10;
  const dur = 10 + rand() * 80;
  return JSON.stringify({
    date: '20260101-000000', endpoint_type: 'vllm', backend: 'vllm', label: null, model_id: 'org/model-8b', tokenizer_id: 'org/model-8b',
    num_prompts: n, request_rate: 'inf', burstiness: 1, max_concurrency: c, duration: dur, completed: n, failed: 0,
    total_input_tokens: n * 1024, total_output_tokens: n * 256, request_throughput: n / dur, request_goodput: null,
    output_throughput: (n * 256) / dur, total_token_throughput: (n * 1280) / dur,
    ttfts: Array.from({ length: n }, () => rand()), mean_ttft_ms: 50 + rand() * 100, median_ttft_ms: 40, std_ttft_ms: 9, p99_ttft_ms: 300,
    mean_tpot_ms: 10 + rand() * 10, median_tpot_ms: 12, std_tpot_ms: 1, p99_tpot_ms: 30,
  });
}

/** A vLLM V1 server log: startup, then mostly access and request lines, a stats line every 10 s. */
function writeServerLog(file: string, bytes: number, rand: () => number): void {
  const fd = openSync(file, 'w');
  let written = 0;
  const put = (s: string) => {
    written += writeSync(fd, s);
  };
  put('INFO 01-05 10:00:00 [api_server.py:1880] vLLM API server version 0.11.0\n');
  put("INFO 01-05 10:00:00 [utils.py:233] non-default args: {'model': 'org/model-8b', 'tensor_parallel_size': 2, 'max_num_seqs': 256}\n");
  let sec = 0;
  let buffer = '';
  while (written < bytes) {
    for (let k = 0; k < 200; k++) {
      const id = Math.floor(rand() * 1e12).toString(16);
      buffer += `(APIServer pid=41) INFO:     127.0.0.1:${40000 + (k % 2000)} - "POST /v1/completions HTTP/1.1" 200 OK\n`;
      buffer += `(APIServer pid=41) INFO 01-05 10:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)} [logger.py:43] Received request cmpl-${id}-0: prompt: 'Write a short story about request ${id}', params: SamplingParams(n=1, temperature=0.0, max_tokens=256), prompt_token_ids: None, lora_request: None.\n`;
    }
    sec += 10;
    const t = `${pad(10 + Math.floor(sec / 3600) % 14)}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}`;
    buffer += `(APIServer pid=41) INFO 01-05 ${t} [loggers.py:123] Engine 000: Avg prompt throughput: ${(rand() * 9000).toFixed(1)} tokens/s, Avg generation throughput: ${(rand() * 3000).toFixed(1)} tokens/s, Running: ${Math.floor(rand() * 64)} reqs, Waiting: ${Math.floor(rand() * 8)} reqs, GPU KV cache usage: ${(rand() * 90).toFixed(1)}%, Prefix cache hit rate: ${(rand() * 50).toFixed(1)}%\n`;
    put(buffer);
    buffer = '';
  }
  closeSync(fd);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An SGLang server log where nearly every line is a batch statistics line (a decode batch every
 * quarter second, a prefill batch now and then): the opposite of the access-line logs above, every
 * line is parsed and becomes a timeline entry. Measures the cost and memory of timelines.
 */
export function writeStatsDenseLog(file: string, bytes: number): void {
  const rand = seededRandom(20261122);
  const fd = openSync(file, 'w');
  let written = writeSync(fd, "[2026-07-04 05:00:00] server_args=ServerArgs(model_path='org/model-8b', tp_size=2, speculative_algorithm=None)\n");
  const start = Date.UTC(2026, 6, 4, 5, 0, 0);
  let buffer = '';
  for (let i = 0; written < bytes; i++) {
    const t = new Date(start + i * 250).toISOString().replace('T', ' ').slice(0, 19);
    const running = Math.floor(rand() * 64);
    if (i % 8 === 0) {
      buffer += `[${t} TP0] Prefill batch, #new-seq: ${1 + (i % 4)}, #new-token: ${Math.floor(rand() * 8192)}, #cached-token: ${Math.floor(rand() * 4096)}, token usage: ${rand().toFixed(2)}, #running-req: ${running}, #queue-req: ${i % 5}, input throughput (token/s): ${(rand() * 9000).toFixed(2)}\n`;
    } else {
      buffer += `[${t} TP0] Decode batch, #running-req: ${running}, #token: ${Math.floor(rand() * 90000)}, token usage: ${rand().toFixed(2)}, cuda graph: True, gen throughput (token/s): ${(rand() * 3000).toFixed(2)}, #queue-req: ${i % 5}\n`;
    }
    if (buffer.length > 1 << 20) {
      written += writeSync(fd, buffer);
      buffer = '';
    }
  }
  if (buffer.length > 0) writeSync(fd, buffer);
  closeSync(fd);
}

/**
 * A sweep's output in one file, as `bash -x sweep.sh 2>&1 | tee sweep.log` leaves it: each
 * benchmark command (traced) and its result block, no headings. Measures a text file of many
 * runs, read whole, each run taking its command's configuration.
 */
export function writeSweepLog(file: string, bytes: number): void {
  const rand = seededRandom(20261124);
  const fd = openSync(file, 'w');
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const c = 2 ** (i % 8);
    written += writeSync(fd, `+ vllm bench serve --model org/model-8b --max-concurrency ${c} --num-prompts ${c * 10} --seed ${i}\n${resultBlock(rand, c)}`);
  }
  closeSync(fd);
}

/**
 * A vLLM result saved with `--save-detailed`, on one line as vLLM writes it: the summary, then every
 * request's input and output length, time to first token and inter-token latencies. Its size is
 * in the `itls` arrays, which no grammar reads: measures reading a large result without them.
 */
export function writeDetailedResult(file: string, bytes: number): void {
  const rand = seededRandom(20261123);
  const fd = openSync(file, 'w');
  const summary = JSON.parse(resultJson(rand, 256)) as Record<string, unknown>;
  delete summary.ttfts;
  let written = writeSync(fd, `${JSON.stringify({ ...summary, output_lens: [256], ttfts: [0.05] }).slice(0, -1)},"itls":[`);
  let buffer = '';
  for (let request = 0; written + buffer.length < bytes; request++) {
    buffer += `${request === 0 ? '' : ','}[${Array.from({ length: 256 }, () => (0.01 + rand() * 0.02).toFixed(6)).join(', ')}]`;
    if (buffer.length > 1 << 20) {
      written += writeSync(fd, buffer);
      buffer = '';
    }
  }
  writeSync(fd, `${buffer}],"errors":[]}\n`);
  closeSync(fd);
}
