/**
 * Every label `trtllm-bench` has printed in its report (0.12 → 1.x), keyed by `reportKey()`, mapped
 * to its canonical column. `unit` is the unit the label's value is printed in; `convertUnit()`
 * brings it to the unit of the column (`_ms` columns in ms, `_s` columns in s).
 */
import { scaleExact } from '../../src/parse/values.js';
import { lookupTable } from '../../src/core/cells.js';
import type { FieldValue } from '../../src/core/types.js';
import { canonicalSpecMethod } from '../../src/normalize/spec-method.js';

export type LabelKind = 'string' | 'number' | 'percent' | 'policy' | 'flag';
export type Unit = 'ms' | 's';

export interface LabelSpec {
  readonly column: string;
  readonly kind: LabelKind;
  readonly unit?: Unit;
  /** A 0 printed under it means "not measured" (a constant the tool filled in), never a value. */
  readonly zeroUnmeasured?: true;
}

const str = (column: string): LabelSpec => ({ column, kind: 'string' });
const num = (column: string, unit?: Unit): LabelSpec => (unit ? { column, kind: 'number', unit } : { column, kind: 'number' });
/**
 * The benchmarks/suite report's (METADATA layout) TTFT, TPOT and peak memory: its in-flight path
 * (`benchmarkers/pybind_executor.py`) fills in 0 for all three, only its static path measures them.
 */
const measuredOrZero = (column: string, unit?: Unit): LabelSpec => ({ ...num(column, unit), zeroUnmeasured: true });

export const REPORT_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  // ENGINE DETAILS (TRT engine) / PYTORCH BACKEND / PyTorch backend (0.17)
  model: str('model'),
  'model path': str('model_path'),
  'engine directory': str('engine_dir'),
  revision: str('model_revision'),
  'tensorrt llm version': str('engine_version'),
  'tensorrt-llm version': str('engine_version'),
  dtype: str('dtype'),
  'kv cache dtype': str('kv_cache_dtype'),
  quantization: str('quantization'),
  'max input length': num('max_input_len'),
  'max sequence length': num('max_model_len'),
  // REQUEST DETAILS (1.x); 0.12–0.17 printed the same lines inside the statistics section
  'number of requests': num('num_prompts'),
  'number of concurrent requests': num('mean_concurrent_requests'),
  'average input length (tokens)': num('mean_input_len'),
  'average output length (tokens)': num('mean_output_len'),
  // WORLD + RUNTIME INFORMATION
  'tp size': num('tp'),
  'pp size': num('pp'),
  'ep size': num('ep'),
  'max runtime batch size': num('max_num_seqs'),
  'max runtime tokens': num('max_num_batched_tokens'),
  'scheduling policy': { column: 'scheduling_policy', kind: 'policy' },
  'kv memory percentage': { column: 'kv_cache_free_gpu_memory_fraction', kind: 'percent' },
  'issue rate (req/sec)': num('issue_rate'),
  // METADATA / ENGINE DETAILS of the earliest layout (TensorRT-LLM's benchmarks/suite,
  // tensorrt_llm_bench/utils/dataclasses.py, BenchmarkResults.get_summary): the engine's build
  // limits, which the executor runs with, and the run's token totals
  'max batch size': num('max_num_seqs'),
  'max tokens': num('max_num_batched_tokens'),
  // (no stored copy of the suite prints it: read for a copy that does, as its Max Input Length)
  'max output length': num('max_output_len'),
  'in-flight batcher?': { column: 'inflight_batching', kind: 'flag' },
  'kv cache size (tokens)': num('kv_cache_tokens'),
  'total input length': num('total_input_tokens'),
  'total output length': num('total_output_tokens'),
  // PERFORMANCE OVERVIEW, every label set
  'request throughput (req/sec)': num('request_throughput'),
  'total output throughput (tokens/sec)': num('output_throughput'),
  'token throughput (tokens/sec)': num('output_throughput'),
  'total token throughput (tokens/sec)': num('total_token_throughput'),
  // METADATA layout's STATISTICS: `Throughput ({throughput_units})`, output tokens over the run's time
  'throughput (tokens/second)': num('output_throughput'),
  'first token latency (ms)': measuredOrZero('mean_ttft_ms', 'ms'),
  'token-to-token latency (ms)': measuredOrZero('mean_tpot_ms', 'ms'),
  'peak gpu memory usage (gb)': measuredOrZero('peak_gpu_memory_gb'),
  'total latency (ms)': num('duration_s', 'ms'),
  'total latency (seconds)': num('duration_s', 's'),
  'average request latency (ms)': num('mean_e2el_ms', 'ms'),
  'per user output throughput [w/ ctx] (tps/user)': num('output_throughput_per_user_with_ctx'),
  'per user output throughput (tokens/sec/user)': num('output_throughput_per_user_with_ctx'),
  'per gpu output throughput (tps/gpu)': num('output_throughput_per_gpu'),
  'per gpu output throughput (tokens/sec/gpu)': num('output_throughput_per_gpu'),
  'average time-to-first-token [ttft] (ms)': num('mean_ttft_ms', 'ms'),
  'average time-per-output-token [tpot] (ms)': num('mean_tpot_ms', 'ms'),
  'per user output speed (tps/user)': num('output_speed_per_user'),
  'per user output speed [1/tpot] (tokens/sec/user)': num('output_speed_per_user'),
  // STREAMING STATISTICS (0.16–0.17)
  'average time-to-first-token (ms)': num('mean_ttft_ms', 'ms'),
  'average inter-token latency (ms)': num('mean_itl_ms', 'ms'),
  // GPU energy (2026, PR #11397, tensorrt_llm/bench/benchmark/utils/energy_monitor.py: NVML's energy
  // counter over the benchmark, summed over the GPUs, scaled to world_size): labels as the PR names
  // the metrics; J over all GPUs, W = that energy / the time, output tok/s per W = tokens per J
  'total energy (j)': num('gpu_energy_j'),
  'average gpu power (w)': num('gpu_power_w'),
  'output tokens per second per watt (tps/w)': num('output_tokens_per_joule'),
  // DATASET DETAILS
  'dataset path': str('dataset_path'),
  'number of sequences': num('dataset_num_sequences'),
});

/**
 * Labels whose meaning depends on their section, read from the source that prints them: those
 * sections' own table is asked before REPORT_LABELS.
 */
const SECTION_LABELS: Readonly<Record<string, Readonly<Record<string, LabelSpec>>>> = lookupTable({
  // `trtllm-bench latency` of 0.15–0.16 (report_latency_statistics; BenchmarkStatistics in
  // tensorrt_llm/bench/benchmark/dataclasses.py): `Total Token Throughput` is token_throughput_ns,
  // OUTPUT tokens over the total latency (0.18+'s PERFORMANCE OVERVIEW label of that name is input +
  // output); `Generation Token Throughput` the mean over requests of each one's output tokens per
  // second of generation time, per user: the `[GTPS]` breakdown's mean
  'throughput overview': lookupTable({
    'total token throughput (tokens/sec)': num('output_throughput'),
    'generation token throughput (tokens/sec)': num('mean_gtps'),
  }),
  // `Acceptance Rate (Speculative)`: total output tokens / total decoding iterations, tokens per
  // step (1.00 without speculation): an acceptance LENGTH, as `[AL]`
  'latency overview': lookupTable({ 'acceptance rate (speculative)': num('spec_acceptance_length') }),
  // benchmarks/suite's last section: the commands it ran (empty when it built none)
  commands: lookupTable({ build: str('build_command'), benchmark: str('benchmark_command') }),
});

/** The spec of a label (its reportKey) in a section (its title). */
export function labelSpec(section: string, key: string): LabelSpec | undefined {
  return SECTION_LABELS[reportKey(section)]?.[key] ?? REPORT_LABELS[key];
}

/**
 * The 0.15–0.16 latency report's breakdowns, one statistic a line (`P95 (ms): x`, `MIN: 1.00`):
 * the section → the column stem. Their `P90` line prints the p50 (PercentileStats of that era has
 * no p90: `f"P90 (ms): {...percentiles.p50...}"`), so it is stored as `median_`.
 */
const STAT_SECTIONS: Readonly<Record<string, string>> = lookupTable({
  'generation latency breakdown': 'generation_latency_ms',
  'acceptance breakdown': 'spec_acceptance_length',
});

/** Whether a section is one of STAT_SECTIONS. */
export function isStatSection(section: string): boolean {
  return STAT_SECTIONS[reportKey(section)] !== undefined;
}

/** `P90 (ms)` in GENERATION LATENCY BREAKDOWN → `median_generation_latency_ms`; null when unknown. */
export function statSectionColumn(section: string, label: string): string | null {
  const stem = STAT_SECTIONS[reportKey(section)];
  const raw = label.replace(/\([^)]*\)\s*$/, '').trim();
  const stat = raw.toLowerCase() === 'p90' ? 'median' : statName(raw);
  return stem === undefined || stat === null ? null : `${stat}_${stem}`;
}

/** Lower case, runs of blanks folded: the lookup key of a label. */
export function reportKey(label: string): string {
  return label.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Brings a value printed in `unit` to the unit of `column` (`_ms` → ms, `_s` → s). */
export function convertUnit(value: number, unit: Unit | undefined, column: string): number {
  if (unit === undefined) return value;
  const target: Unit | null = column.endsWith('_ms') ? 'ms' : column.endsWith('_s') ? 's' : null;
  if (target === null || target === unit) return value;
  return scaleExact(value, target === 'ms' ? 1000 : 0.001);
}

/** `Guaranteed No Evict` (≤ 0.17) and `GUARANTEED_NO_EVICT` (1.x) → one spelling. */
export function schedulingPolicy(raw: string): string {
  return raw.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

/** Breakdown group (`[TPOT]`) → column stem; the mean of AL and DAR are the canonical columns. */
const GROUPS: Readonly<Record<string, { stem: string; mean?: string }>> = lookupTable({
  tpot: { stem: 'tpot_ms' },
  ttft: { stem: 'ttft_ms' },
  latency: { stem: 'e2el_ms' },
  gtps: { stem: 'gtps' },
  al: { stem: 'spec_acceptance_length', mean: 'spec_acceptance_length' },
  dar: { stem: 'spec_acceptance_rate', mean: 'spec_acceptance_rate' },
  dt: { stem: 'spec_draft_tokens_per_request' },
  adt: { stem: 'spec_accepted_tokens_per_request' },
});

/** `MINIMUM` → min, `AVERAGE` → mean, `P50` → median (schema name), `P99` → p99. */
export function statName(raw: string): string | null {
  const k = raw.trim().toLowerCase();
  if (k === 'minimum' || k === 'min') return 'min';
  if (k === 'maximum' || k === 'max') return 'max';
  if (k === 'average' || k === 'avg' || k === 'mean') return 'mean';
  if (k === 'p50' || k === 'median') return 'median';
  return /^p\d+(?:\.\d+)?$/.test(k) ? k : null;
}

/** `[TPOT] P50` → `median_tpot_ms`; `[AL] AVERAGE` → `spec_acceptance_length`; null when unknown. */
export function breakdownColumn(group: string, stat: string): string | null {
  const g = GROUPS[group.toLowerCase()];
  const s = statName(stat);
  if (!g || !s) return null;
  if (s === 'mean' && g.mean) return g.mean;
  return `${s}_${g.stem}`;
}

/**
 * The canonical method of a DECODING STATISTICS mode (`--report_json`: `decoding_stats.mode`). The
 * PyTorch backend's `Eagle` decoding type runs EAGLE-3 (`EagleDecodingConfig.spec_dec_mode` is
 * EAGLE3 or EAGLE3_ONE_MODEL, tensorrt_llm/llmapi/llm_args.py); a TRT engine's `EAGLE` decoding
 * mode is EAGLE-1/2.
 */
export function decodingMethod(mode: string, backend: FieldValue | undefined): string {
  const method = canonicalSpecMethod(mode);
  return method === 'eagle' && backend === 'pytorch' ? 'eagle3' : method;
}
