import type { FieldWriter } from '../../src/core/records.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../_shared/json/index.js';

/**
 * `steady_state`, which the Rust `vllm-bench` (vllm-project/vllm `rust/src/bench`,
 * `output/json.rs` and `metrics/steady_state.rs`, 2026) writes into its result: throughput and
 * TTFT / TPOT over the window in which the client held at least the threshold fraction of
 * `--max-concurrency` requests in flight (`null` when no such window was found), and the window:
 *
 *     "steady_state": {"window": {"start_s", "end_s", "duration_s", "target_concurrency",
 *        "threshold", "threshold_abs", "observed_peak", "requests_started_in_window",
 *        "requests_completed_in_window", "requests_total", "warning"},
 *      "request_throughput", "input_throughput", "output_throughput", "total_token_throughput",
 *      "mean_ttft_ms", "median_ttft_ms", "percentiles_ttft_ms": [[99.0, 871.5]],
 *      "mean_tpot_ms", "median_tpot_ms", "p90_tpot_ms", "p99_tpot_ms"}
 *
 * Flattened to `steady_state_<key>` (the window's keys too, `percentiles_ttft_ms` pairs as
 * `steady_state_p<p>_ttft_ms`), the columns its printed `Steady-State Metrics` section is read into
 * (grammars/vllm-bench-serve/steady-state.ts). A key of any other shape is kept as JSON text.
 */
export function addSteadyState(builder: FieldWriter, value: JsonObject, line: number): void {
  const put = (key: string, v: JsonValue): void => {
    if (v === null || typeof v !== 'object') builder.set(`steady_state_${key}`, v, line);
    else builder.set(`steady_state_${key}`, JSON.stringify(v), line);
  };
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (key === 'window' && isJsonObject(v)) {
      for (const [wk, wv] of Object.entries(v)) if (wv !== undefined) put(wk, wv);
    } else if (key === 'percentiles_ttft_ms' && Array.isArray(v) && v.every(isPair)) {
      for (const [p, ms] of v as [number, number][]) put(`p${Number.isInteger(p) ? p : String(p)}_ttft_ms`, ms);
    } else put(key, v);
  }
}

function isPair(v: JsonValue): boolean {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
}
