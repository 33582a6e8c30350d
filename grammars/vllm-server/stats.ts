/**
 * vLLM's periodic log lines → timeline fields (formats.md §4.3–4.5): the V0 and V1 stats lines
 * (one engine's, or all engines' with `--aggregate-engine-logging`), the V0 prefix-cache line,
 * the five speculative-decoding shapes, the diffusion-decoding line, the V0 stage times,
 * the KV-connector `KV Transfer metrics` line and the `MFU:` performance line.
 * Fields are split at `, Label: ` (a label starts with a letter and holds no `:` or `,`), never
 * at a bare comma: the per-position acceptance list uses the same ", " separator as the fields
 * around it. One rule for every field: a label the tables know goes to its column, any other to a
 * column of its own name (stats-labels.ts), and a value that cannot be read is named in `bad`.
 */
import type { FieldValue } from '../../src/core/types.js';
import { percentToFraction } from '../../src/parse/values.js';
import { setCell } from '../../src/core/cells.js';
import { columnOfUnknownLabel, DIFFUSION_LABELS, KV_TRANSFER_KEYS, type LabelSpec, type LabelTable, SPEC_V0_LABELS, SPEC_V1_LABELS, STATS_LABELS, type Unit } from './stats-labels.js';

/** Which kind of periodic line a partial came from; a timeline record merges distinct kinds. */
export type StatsKind = 'stats' | 'prefix' | 'spec' | 'diffusion' | 'stages' | 'kv_transfer' | 'perf' | 'cudagraph' | 'iteration';

export interface StatsPartial {
  readonly kind: StatsKind;
  readonly fields: Record<string, FieldValue>;
  /** Labels whose value could not be read (a line cut short, a new unit). */
  readonly bad: string[];
}

const NUM = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|nan|inf`;
/** A value ends the text, or is followed by `, ` and more (a field cut short before its colon). */
const END = String.raw`(?:$|, \S)`;
const UNIT_RE: Readonly<Record<Exclude<Unit, 'list'>, RegExp>> = {
  'tok/s': new RegExp(`^(${NUM}) tokens/s${END}`),
  reqs: new RegExp(`^(${NUM}) reqs?${END}`),
  pct: new RegExp(`^(${NUM}) ?%${END}`),
  fraction: new RegExp(`^(${NUM})${END}`),
  count: new RegExp(`^(${NUM})${END}`),
  tokens: new RegExp(`^(${NUM}) tokens${END}`),
  number: new RegExp(`^(${NUM})${END}`),
  // a label no table knows: a number with one of the units vLLM prints, or none (`%` read as a fraction, as every rate is)
  any: new RegExp(`^(${NUM})(?:( ?%)| (?:tokens/s|reqs?|tokens))?${END}`),
};

/**
 * Where a stats line starts: `Engine 000: ` (one engine of several, V1), `2 Engines Aggregated: `
 * (`--aggregate-engine-logging`: the engines' sums, and their mean KV cache usage), or nothing.
 */
const STATS_START = /^((?:Engine (\d+): |(\d+) Engines Aggregated: )?)Avg prompt throughput: /;
/** A field: `, Label: ` (or the label the text starts with). */
const FIELD_LABEL = /(?:^|, )([A-Za-z][^:,]*): /g;
/**
 * A count of requests followed by a label with no comma between: early V1 (0.7) printed `Running:
 * %d reqs, Waiting: %d reqs ` and then `GPU KV cache usage: %.1f%%.`.
 */
const REQS_THEN_LABEL = /(\d reqs?) (?=[A-Za-z][^:,]*: )/g;
/** A `Key=value` pair of the KV-transfer line: a key starts with a letter and holds no `=` or `,`. */
const KV_KEY = /(?:^|, )([A-Za-z][^=,]*)=/g;
const KV_TRANSFER = 'KV Transfer metrics: ';
/** The KV-transfer columns that describe the interval's successful transfers (their means, P90s, rate). */
const PER_TRANSFER = ['kv_transfer_time_avg_ms', 'kv_transfer_time_p90_ms', 'kv_transfer_post_time_avg_ms', 'kv_transfer_post_time_p90_ms', 'kv_transfer_size_avg_mib', 'kv_transfer_throughput_mib_per_s', 'kv_transfer_descriptors_avg'];
const PREFIX_V0 = /^Prefix cache hit rate: GPU: (\S+?)%, CPU: (\S+?)%/;
const STAGES = /^SpecDecodeWorker stage times: (.*)$/;
/** The `engine_index` of a stats line that sums all engines: no one engine's row. */
const ALL_ENGINES = 'all';

/** Reads one periodic line, or returns null when the message is not one. */
export function readStatsLine(message: string): StatsPartial | null {
  return commonStatsLine(message) ?? readStatsLineByLabels(message);
}

const N = String.raw`([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)`;
/**
 * The performance line of `--enable-mfu-metrics` (vllm/v1/metrics/perf.py, PerfMetricsLogging.log),
 * logged after the stats line with the same engine prefix: the interval's mean achieved TFLOP/s and
 * memory GB/s (10^9 bytes) per GPU, as the model's analytic FLOP and byte counts give them.
 */
const PERF_LINE = new RegExp(String.raw`^(?:Engine (\d+): |(\d+) Engines Aggregated: )?MFU: ${N} TF/s/GPU ${N} GB/s/GPU\s*$`);
/**
 * One engine step of `--enable-logging-iteration-details` (vllm/v1/engine/core.py
 * `log_iteration_details`): `Iteration(n): A context requests, B context tokens, C generation
 * requests, D generation tokens, iteration elapsed time: X ms`, later with ` (dummy)` for a
 * data-parallel padding step; the shape logged from the stats logger adds the engine prefix and
 * `, Label: value` fields (read as the stats line's).
 */
const ITERATION_LINE = new RegExp(
  String.raw`^(?:Engine (\d+): |(\d+) Engines Aggregated: )?Iteration\((\d+)\): (\d+) context requests?, (\d+) context tokens?, ` +
    String.raw`(\d+) generation requests?, (\d+) generation tokens?, iteration elapsed time: ${N} ms( \(dummy\))?(?:, (.*?))?\s*$`,
);
/** vLLM V1's stats line exactly as it prints it (the engine index optional): the bulk of what a big log passes on. */
const COMMON_STATS = new RegExp(
  String.raw`^(?:Engine (\d+): )?Avg prompt throughput: ${N} tokens/s, Avg generation throughput: ${N} tokens/s, ` +
    String.raw`Running: ${N} reqs?, Waiting: ${N} reqs?, GPU KV cache usage: ${N} ?%, Prefix cache hit rate: ${N} ?%[,.]?\s*$`,
);

/**
 * readStatsLineByLabels's result for the common V1 line, read by one expression: the label reader
 * is general (any subset and order of labels, units checked one by one) and, over the few thousand
 * stats lines a thread sees, its code stays cold. null for anything else (an aggregated line, one
 * with preemptions or another optional field); a test checks the two agree wherever this answers.
 */
export function commonStatsLine(message: string): StatsPartial | null {
  const m = COMMON_STATS.exec(message);
  if (m === null) return null;
  const [prompt, gen, running, waiting, kv, prefix] = [m[2], m[3], m[4], m[5], m[6], m[7]].map(Number) as [number, number, number, number, number, number];
  if (![prompt, gen, running, waiting, kv, prefix].every(Number.isFinite)) return null;
  const fields: Record<string, FieldValue> = {
    prompt_throughput: prompt,
    gen_throughput: gen,
    running,
    waiting,
    kv_cache_usage: percentToFraction(kv),
    prefix_cache_hit_rate: percentToFraction(prefix),
  };
  if (m[1] !== undefined) fields.engine_index = Number(m[1]);
  return { kind: 'stats', fields, bad: [] };
}

/** Reads one periodic line by its labels, or returns null when the message is not one. */
export function readStatsLineByLabels(message: string): StatsPartial | null {
  const c = message.charCodeAt(0);
  if (c === 69 || c === 65 || (c >= 48 && c <= 57)) {
    // 'E'ngine / 'A'vg / the engine count of an aggregated line
    const m = STATS_START.exec(message);
    if (!m) {
      if (c === 65) return null;
      if (message.includes('MFU: ')) return readPerf(message);
      return message.includes(': Iteration(') ? readIteration(message) : null;
    }
    const [, prefix = '', engine, aggregated] = m;
    const fields = message.slice(prefix.length);
    const partial = readLabels(fields.includes('reqs ') ? fields.replace(REQS_THEN_LABEL, '$1, ') : fields, STATS_LABELS, 'stats');
    setEngine(partial, engine, aggregated);
    return partial;
  }
  if (c === 75 && message.startsWith(KV_TRANSFER)) return readKvTransfer(message.slice(KV_TRANSFER.length)); // 'K'
  if (c === 77 && message.startsWith('MFU: ')) return readPerf(message); // 'M'
  if (c === 73 && message.startsWith('Iteration(')) return readIteration(message); // 'I'
  if (message.startsWith('Speculative metrics: ')) return readLabels(message.slice(21), SPEC_V0_LABELS, 'spec');
  if (message.startsWith('SpecDecoding metrics: ')) return readLabels(message.slice(22), SPEC_V1_LABELS, 'spec');
  if (message.startsWith('DiffusionDecoding metrics: ')) return readLabels(message.slice(27), DIFFUSION_LABELS, 'diffusion');
  if (message.startsWith('Prefix cache hit rate: GPU: ')) return readPrefixV0(message);
  if (message.startsWith('SpecDecodeWorker stage times: ')) return readStages(message);
  return null;
}

function setEngine(partial: StatsPartial, engine: string | undefined, aggregated: string | undefined): void {
  if (engine !== undefined) partial.fields.engine_index = Number(engine);
  if (aggregated !== undefined) {
    partial.fields.engine_index = ALL_ENGINES;
    partial.fields.aggregated_engines = Number(aggregated);
  }
}

/**
 * `KV Transfer metrics: Num successful transfers=3, Avg xfer time (ms)=1.5, …`: the connector's
 * interval summary, split at `, Key=`. null for the MultiConnector's nested shape
 * (`NixlConnector={'Num successful transfers': 3, …}`), which is not read.
 */
function readKvTransfer(text: string): StatsPartial | null {
  if (text.includes('={')) return null;
  const out: StatsPartial = { kind: 'kv_transfer', fields: {}, bad: [] };
  const re = KV_KEY;
  re.lastIndex = 0;
  let key: string | null = null;
  let valueStart = 0;
  for (;;) {
    const m = re.exec(text);
    if (key !== null) readField(out, key, KV_TRANSFER_KEYS[key] ?? { column: `kv_transfer_${columnOfUnknownLabel(key)}`, unit: 'number' }, text.slice(valueStart, m === null ? text.length : m.index));
    if (m === null) break;
    key = m[1] ?? '';
    valueStart = m.index + m[0].length;
  }
  if (key === null) out.bad.push('KV Transfer metrics');
  // an interval with no successful transfer prints 0 for every per-transfer statistic: no value, not a zero
  if (out.fields.kv_transfer_count === 0) return { ...out, fields: Object.fromEntries(Object.entries(out.fields).filter(([k]) => !PER_TRANSFER.includes(k))) };
  return out;
}

/** `[Engine 000: ]MFU: 12.3 TF/s/GPU 456.7 GB/s/GPU`; a line that says `MFU: ` but not in this shape is named in `bad`. */
function readPerf(message: string): StatsPartial | null {
  const m = PERF_LINE.exec(message);
  if (m === null) {
    const at = message.indexOf('MFU: ');
    // only the line itself (`MFU: ` after nothing or an engine prefix), not a message that mentions MFU
    return at === 0 || /^(?:Engine \d+|\d+ Engines Aggregated): $/.test(message.slice(0, at)) ? { kind: 'perf', fields: {}, bad: ['MFU'] } : null;
  }
  const out: StatsPartial = { kind: 'perf', fields: {}, bad: [] };
  const tflops = Number(m[3]);
  const gbps = Number(m[4]);
  if (Number.isFinite(tflops)) out.fields.mfu_tflops_per_gpu = tflops;
  if (Number.isFinite(gbps)) out.fields.mfu_mem_gb_per_s_per_gpu = gbps;
  setEngine(out, m[1], m[2]);
  return out;
}

/**
 * `[Engine 000: ]Iteration(12): 1 context requests, 2048 context tokens, 7 generation requests, 7
 * generation tokens, iteration elapsed time: 41.27 ms[ (dummy)][, GPU KV cache usage: 3.1%]`, named
 * as the per-iteration columns of the TensorRT-LLM grammars; a line that starts so but is not in
 * this shape is named in `bad`.
 */
function readIteration(message: string): StatsPartial | null {
  const m = ITERATION_LINE.exec(message);
  if (m === null) return /^(?:Engine \d+: |\d+ Engines Aggregated: )?Iteration\(\d+\): /.test(message) ? { kind: 'iteration', fields: {}, bad: ['Iteration'] } : null;
  const out: StatsPartial = m[10] === undefined ? { kind: 'iteration', fields: {}, bad: [] } : readLabels(m[10], STATS_LABELS, 'iteration');
  const f = out.fields;
  f.iteration = Number(m[3]);
  f.num_ctx_requests = Number(m[4]);
  f.num_ctx_tokens = Number(m[5]);
  f.num_generation_requests = Number(m[6]);
  f.num_generation_tokens = Number(m[7]);
  const ms = Number(m[8]);
  if (Number.isFinite(ms)) f.iter_latency_ms = ms;
  if (m[9] !== undefined) f.dummy_iteration = true;
  setEngine(out, m[1], m[2]);
  return out;
}

/** Splits `Label: value, Label: value` at its labels, then reads each value by its label's unit. */
function readLabels(text: string, labels: LabelTable, kind: StatsKind): StatsPartial {
  const re = FIELD_LABEL;
  const out: StatsPartial = { kind, fields: {}, bad: [] };
  re.lastIndex = 0;
  // each value runs from the end of its label to the start of the next label (or the end of the text)
  let label: string | null = null;
  let valueStart = 0;
  for (;;) {
    const m = re.exec(text);
    if (label !== null) readField(out, label, labels[label] ?? unknownLabel(label), text.slice(valueStart, m === null ? text.length : m.index));
    if (m === null) break;
    label = m[1] ?? '';
    valueStart = m.index + m[0].length;
  }
  return out;
}

/** A label the table does not know: kept under its own name, its unit read from its value. */
function unknownLabel(label: string): LabelSpec {
  return { column: columnOfUnknownLabel(label), unit: 'any' };
}

function readField(out: StatsPartial, label: string, spec: LabelSpec, raw: string): void {
  const value = readValue(withoutTrailer(raw), spec.unit);
  if (value === undefined) out.bad.push(label);
  else if (value !== null && !Object.hasOwn(out.fields, spec.column)) setCell(out.fields, spec.column, value);
}

/** The value without trailing white space and one `,` or `.` before it (the line's or the list's end). */
function withoutTrailer(raw: string): string {
  let end = raw.length;
  while (end > 0 && isSpace(raw.charCodeAt(end - 1))) end--;
  const last = raw.charCodeAt(end - 1);
  if (last === 44 || last === 46) end--; // ',' '.'
  return end === raw.length ? raw : raw.slice(0, end);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x1680 || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** undefined = unreadable; null = an explicit "no value" (`nan%`). */
function readValue(raw: string, unit: Unit): FieldValue | undefined {
  if (unit === 'list') {
    const items = raw.split(',').map((s) => s.trim());
    if (items.some((s) => !/^\d+(?:\.\d+)?$/.test(s))) return undefined;
    return items.map(Number);
  }
  const m = UNIT_RE[unit].exec(raw.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return null;
  const percent = unit === 'pct' || (unit === 'any' && m[2] !== undefined);
  return percent ? percentToFraction(n) : n;
}

function readPrefixV0(message: string): StatsPartial {
  const m = PREFIX_V0.exec(message);
  const out: StatsPartial = { kind: 'prefix', fields: {}, bad: [] };
  const gpu = Number(m?.[1]);
  const cpu = Number(m?.[2]);
  if (m && Number.isFinite(gpu)) out.fields.prefix_cache_hit_rate = percentToFraction(gpu);
  if (m && Number.isFinite(cpu)) out.fields.cpu_prefix_cache_hit_rate = percentToFraction(cpu);
  if (!m) out.bad.push('Prefix cache hit rate');
  return out;
}

function readStages(message: string): StatsPartial {
  const out: StatsPartial = { kind: 'stages', fields: {}, bad: [] };
  for (const pair of (STAGES.exec(message)?.[1] ?? '').trim().split(/\s+/)) {
    const m = /^(\w+)=([\d.]+)$/.exec(pair);
    if (m && Number.isFinite(Number(m[2]))) out.fields[`spec_${m[1]}`] = Number(m[2]);
    else if (pair !== '') out.bad.push(pair.split('=')[0] ?? pair);
  }
  return out;
}
