import type { Row } from '../../src/charts/types.js';

/** A small spec-decoding sweep built in code: baseline + eagle3 K∈{2,4} + ngram K=3, four concurrencies. */
export const CONCURRENCIES = [1, 4, 16, 64] as const;

const BASE_TPUT: Record<number, number> = { 1: 80, 4: 300, 16: 1000, 64: 2400 };
const SPEEDUP: Record<string, Record<number, number>> = {
  'eagle3:2': { 1: 1.8, 4: 1.6, 16: 1.2, 64: 0.9 },
  'eagle3:4': { 1: 2.2, 4: 1.7, 16: 1.1, 64: 0.8 },
  'ngram:3': { 1: 1.3, 4: 1.2, 16: 1.05, 64: 0.95 },
};

function run(method: string, k: number | null, conc: number, line: number, model: string): Record<string, Row[string]> {
  const factor = k === null ? 1 : (SPEEDUP[`${method}:${k}`]?.[conc] ?? 1);
  const tput = (BASE_TPUT[conc] ?? 1) * factor;
  const tpot = (1000 / (tput / conc)) ;
  return {
    run_id: `r${line}`,
    source_file: `sweep/${method}${k ?? ''}.txt`,
    source_line: line,
    label: null,
    engine: 'vllm',
    engine_version: '0.11.0',
    model,
    dataset: 'sharegpt',
    spec_method: method,
    num_spec_tokens: k,
    max_concurrency: conc,
    output_throughput: round(tput),
    mean_tpot_ms: round(tpot),
    mean_ttft_ms: round(20 + conc * 1.5),
    output_throughput_per_user: round(1000 / tpot),
    output_throughput_per_gpu: round(tput),
    completed: 100,
    failed: 0,
    spec_acceptance_length: k === null ? null : round(1 + factor * 0.9),
    spec_per_position_acceptance: k === null ? null : Array.from({ length: k }, (_v, i) => round(0.8 - i * 0.15)),
    // as a multi-turn run's: the first token later at each turn, as the conversation grows
    per_turn_mean_ttft_ms: [1, 1.4, 1.8].map((grow) => round((20 + conc * 1.5) * grow)),
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Runs table rows (schema §1), sorted by file then line. */
export function sampleRuns(model = 'acme/tiny-8b'): Row[] {
  const rows: Row[] = [];
  let line = 1;
  for (const [method, k] of [['none', null], ['eagle3', 2], ['eagle3', 4], ['ngram', 3]] as const) {
    for (const c of CONCURRENCIES) rows.push(run(method, k, c, line++ * 10, model));
  }
  return rows;
}

/** Comparison rows (schema §3): candidates with speedups vs the matching baseline; one cell left missing. */
export function sampleComparison(model = 'acme/tiny-8b'): Row[] {
  const runs = sampleRuns(model);
  const base = new Map(runs.filter((r) => r.spec_method === 'none').map((r) => [r.max_concurrency, r]));
  return runs
    .filter((r) => r.spec_method !== 'none' && !(r.spec_method === 'ngram' && r.max_concurrency === 64))
    .map((r) => {
      const b = base.get(r.max_concurrency);
      const st = Math.round(((r.output_throughput as number) / (b?.output_throughput as number)) * 10000) / 10000;
      const sp = Math.round(((b?.mean_tpot_ms as number) / (r.mean_tpot_ms as number)) * 10000) / 10000;
      return { ...r, baseline_run_id: b?.run_id ?? null, speedup_output_throughput: st, speedup_mean_tpot_ms: sp, pair_status: 'ok' };
    });
}

/** Timeline rows (schema §2): one server log, ten stats lines ten seconds apart. */
export function sampleTimeline(): Row[] {
  return Array.from({ length: 10 }, (_v, i) => ({
    source_file: 'sweep/server.log',
    source_line: 100 + i,
    engine: 'vllm',
    time: `2026-03-01T10:00:${String(i * 5).padStart(2, '0')}`,
    prompt_throughput: i === 0 ? 900 : 10,
    gen_throughput: 200 + i * 50,
    running: Math.min(16, i * 2),
    waiting: Math.max(0, i - 6),
    kv_cache_usage: Math.round(i * 0.07 * 100) / 100,
    prefix_cache_hit_rate: 0,
    spec_acceptance_rate: Math.round((0.6 + (i % 3) * 0.05) * 100) / 100,
    spec_acceptance_length: 2.5,
  }));
}

/**
 * The sample sweep once per model (`org/model-<m>`) and tp: `models` × `tps` campaigns of the same
 * sweep. `R`: the row type the caller reads them as (the comparison's, the analysis's).
 */
export function campaign<R = Row>(rows: (model: string) => Row[], models: number, tps: readonly (number | null)[] = [null]): R[] {
  const out: R[] = [];
  for (let m = 0; m < models; m++)
    for (const tp of tps) for (const r of rows(`org/model-${m}`)) out.push({ ...r, ...(tp === null ? {} : { tp }), run_id: `${String(r.run_id)}-${m}-${tp ?? ''}`, source_file: `m${m}/${String(r.source_file)}` } as R);
  return out;
}
