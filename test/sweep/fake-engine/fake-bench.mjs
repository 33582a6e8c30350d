// Stand-in for `vllm bench serve` (see ./vllm).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flags, pad, stamp } from './fake-common.mjs';

export async function bench(rest) {
  const f = flags(rest);
  if (process.env.FAKE_BENCH_PIDFILE) appendFileSync(process.env.FAKE_BENCH_PIDFILE, `${process.pid}\n`);
  const c = Number(f.max_concurrency ?? 1);
  const n = Number(f.num_prompts ?? 100);
  const label = f.label ?? 'vllm';
  const rate = f.request_rate ?? 'inf';
  const model = f.model ?? 'facebook/opt-125m';
  console.log(`INFO ${stamp()} [__init__.py:216] Automatically detected platform cuda.`);
  console.log(`Namespace(backend='${f.backend}', base_url='${f.base_url}', model='${model}', max_concurrency=${c}, num_prompts=${n}, request_rate=${rate})`);
  console.log('Starting initial single prompt test run...');
  try {
    const res = await fetch(`${f.base_url}/v1/models`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) throw new Error(`status ${res.status}`);
  } catch (e) {
    console.log('Traceback (most recent call last):');
    console.log(`aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host ${f.base_url} (${e.message})`);
    process.exit(1);
  }
  const fails = (process.env.FAKE_BENCH_FAIL ?? '').split(',').filter(Boolean);
  if (fails.some((x) => x === label || x === `${label}:${c}` || x === `*:${c}`)) {
    console.log('Initial test run completed. Starting main benchmark run...');
    console.log('Traceback (most recent call last):');
    console.log('ValueError: Initial test run failed - Please make sure benchmark arguments are correctly specified. Error: Bad Request');
    process.exit(1);
  }
  console.log('Initial test run completed. Starting main benchmark run...');
  console.log(`Traffic request rate: ${rate}`);
  console.log('Burstiness factor: 1.0 (Poisson process)');
  console.log(`Maximum request concurrency: ${c}`);
  const sleepMs = Number(process.env.FAKE_BENCH_SLEEP_MS ?? 0);
  if (sleepMs > 0) await new Promise((r) => setTimeout(r, sleepMs));
  const factor = /eagle/i.test(label) ? 1.8 : /draft/i.test(label) ? 1.4 : 1;
  const outLen = Number(f.random_output_len ?? 128);
  const inLen = Number(f.random_input_len ?? 512);
  const tpot = Number(((25 * (1 + 0.08 * c)) / factor).toFixed(2));
  const ttft = Number((40 + 6 * c).toFixed(2));
  const e2el = Number((ttft + tpot * (outLen - 1)).toFixed(2));
  const duration = Number(((n / c) * e2el / 1000).toFixed(2));
  const outTok = n * outLen;
  const r = {
    // like vLLM: the client's local time when the run finished (the stand-in server stamps its lines so too)
    date: resultDate(), endpoint_type: f.backend ?? 'vllm', backend: f.backend ?? 'vllm', label, model_id: model, tokenizer_id: model,
    num_prompts: n, request_rate: rate === 'inf' ? 'inf' : Number(rate), burstiness: 1.0, max_concurrency: c,
    duration, completed: n, failed: 0, total_input_tokens: n * inLen, total_output_tokens: outTok,
    request_throughput: Number((n / duration).toFixed(4)), request_goodput: null,
    output_throughput: Number((outTok / duration).toFixed(4)), total_token_throughput: Number(((outTok + n * inLen) / duration).toFixed(4)),
    max_output_tokens_per_s: Number((1.3 * outTok / duration).toFixed(2)), max_concurrent_requests: c,
    mean_ttft_ms: ttft, median_ttft_ms: ttft, std_ttft_ms: 3.5, p99_ttft_ms: Number((ttft * 1.9).toFixed(2)),
    mean_tpot_ms: tpot, median_tpot_ms: tpot, std_tpot_ms: 1.25, p99_tpot_ms: Number((tpot * 1.4).toFixed(2)),
    mean_itl_ms: Number((tpot * factor).toFixed(2)), median_itl_ms: Number((tpot * factor).toFixed(2)), std_itl_ms: 2.5, p99_itl_ms: Number((tpot * factor * 2).toFixed(2)),
    mean_e2el_ms: e2el, median_e2el_ms: e2el, std_e2el_ms: 11.5, p99_e2el_ms: Number((e2el * 1.2).toFixed(2)),
    input_lens: [inLen], output_lens: [outLen], ttfts: [ttft / 1000], itls: [[tpot / 1000]], generated_texts: ['fake'], errors: [''],
  };
  const row = (k, v) => console.log(`${k.padEnd(41)}${String(v).padEnd(10)}`);
  const fmt = (v) => v.toFixed(2);
  console.log('============ Serving Benchmark Result ============');
  row('Successful requests:', n);
  row('Failed requests:', 0);
  row('Maximum request concurrency:', c);
  if (rate !== 'inf') row('Request rate configured (RPS):', fmt(Number(rate)));
  row('Benchmark duration (s):', fmt(duration));
  row('Total input tokens:', r.total_input_tokens);
  row('Total generated tokens:', outTok);
  row('Request throughput (req/s):', fmt(r.request_throughput));
  row('Output token throughput (tok/s):', fmt(r.output_throughput));
  row('Peak output token throughput (tok/s):', fmt(r.max_output_tokens_per_s));
  row('Peak concurrent requests:', fmt(c));
  row('Total token throughput (tok/s):', fmt(r.total_token_throughput));
  console.log('---------------Time to First Token----------------');
  row('Mean TTFT (ms):', fmt(ttft)); row('Median TTFT (ms):', fmt(ttft)); row('P99 TTFT (ms):', fmt(r.p99_ttft_ms));
  console.log('-----Time per Output Token (excl. 1st token)------');
  row('Mean TPOT (ms):', fmt(tpot)); row('Median TPOT (ms):', fmt(tpot)); row('P99 TPOT (ms):', fmt(r.p99_tpot_ms));
  console.log('---------------Inter-token Latency----------------');
  row('Mean ITL (ms):', fmt(r.mean_itl_ms)); row('Median ITL (ms):', fmt(r.median_itl_ms)); row('P99 ITL (ms):', fmt(r.p99_itl_ms));
  console.log('==================================================');
  if (f.save_result) {
    const dir = f.result_dir ?? '.';
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, f.result_filename ?? 'result.json'), JSON.stringify(r));
  }
}

/** `datetime.now().strftime("%Y%m%d-%H%M%S")`. */
function resultDate() {
  const d = new Date();
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}
