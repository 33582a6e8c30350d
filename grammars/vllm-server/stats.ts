/**
 * vLLM's periodic log lines → timeline fields (formats.md §4.3–4.5): the V0 and V1 stats lines,
 * the V0 prefix-cache line, the five speculative-decoding shapes and the V0 stage times. Fields
 * are split by the KNOWN label set, never by commas: the per-position acceptance list uses the
 * same ", " separator as the fields around it.
 */
import type { FieldValue } from '../../src/core/types.js';
import { percentToFraction } from '../../src/parse/values.js';
import { lookupTable, setCell } from '../../src/core/cells.js';
import { escapeRegExp } from '../../src/core/literals.js';

/** Which kind of periodic line a partial came from; a timeline record merges distinct kinds. */
export type StatsKind = 'stats' | 'prefix' | 'spec' | 'stages';

export interface StatsPartial {
  readonly kind: StatsKind;
  readonly fields: Record<string, FieldValue>;
  /** Labels whose value could not be read (a line cut short, a new unit). */
  readonly bad: string[];
}

type Unit = 'tok/s' | 'reqs' | 'pct' | 'fraction' | 'count' | 'tokens' | 'list' | 'number';
interface LabelSpec {
  readonly column: string;
  readonly unit: Unit;
}

const STATS_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'Avg prompt throughput': { column: 'prompt_throughput', unit: 'tok/s' },
  'Avg generation throughput': { column: 'gen_throughput', unit: 'tok/s' },
  Running: { column: 'running', unit: 'reqs' },
  Swapped: { column: 'swapped', unit: 'reqs' },
  Pending: { column: 'waiting', unit: 'reqs' },
  Waiting: { column: 'waiting', unit: 'reqs' },
  'GPU KV cache usage': { column: 'kv_cache_usage', unit: 'pct' },
  'CPU KV cache usage': { column: 'cpu_kv_cache_usage', unit: 'pct' },
  'Prefix cache hit rate': { column: 'prefix_cache_hit_rate', unit: 'pct' },
  'External prefix cache hit rate': { column: 'external_prefix_cache_hit_rate', unit: 'pct' },
});

/** V0 and V1 shape 1 (`Speculative metrics:`): rates are fractions. */
const SPEC_V0_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'fraction' },
  'System efficiency': { column: 'spec_system_efficiency', unit: 'fraction' },
  'Number of speculative tokens': { column: 'num_spec_tokens', unit: 'count' },
  'Number of accepted tokens': { column: 'spec_accepted_tokens', unit: 'count' },
  'Number of draft tokens': { column: 'spec_draft_tokens', unit: 'count' },
  'Number of draft tokens tokens': { column: 'spec_draft_tokens', unit: 'count' },
  'Number of emitted tokens': { column: 'spec_emitted_tokens', unit: 'count' },
  'Number of emitted tokens tokens': { column: 'spec_emitted_tokens', unit: 'count' },
});

/** V1 shapes 2–4 (`SpecDecoding metrics:`): rates are percents. */
const SPEC_V1_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'pct' },
  'Avg Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'pct' },
  'Mean acceptance length': { column: 'spec_acceptance_length', unit: 'number' },
  'Accepted throughput': { column: 'spec_accepted_throughput', unit: 'tok/s' },
  'Drafted throughput': { column: 'spec_drafted_throughput', unit: 'tok/s' },
  Accepted: { column: 'spec_accepted_tokens', unit: 'tokens' },
  Drafted: { column: 'spec_draft_tokens', unit: 'tokens' },
  'Per-position acceptance rate': { column: 'spec_per_position_acceptance', unit: 'list' },
});

const NUM = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|nan|inf`;
/** A value ends the text, or is followed by `, ` and a label this reader does not know. */
const END = String.raw`(?:$|, \S)`;
const UNIT_RE: Readonly<Record<Exclude<Unit, 'list'>, RegExp>> = {
  'tok/s': new RegExp(`^(${NUM}) tokens/s${END}`),
  reqs: new RegExp(`^(${NUM}) reqs?${END}`),
  pct: new RegExp(`^(${NUM}) ?%${END}`),
  fraction: new RegExp(`^(${NUM})${END}`),
  count: new RegExp(`^(${NUM})${END}`),
  tokens: new RegExp(`^(${NUM}) tokens${END}`),
  number: new RegExp(`^(${NUM})${END}`),
};

const STATS_START = /^(?:Engine (\d+): )?Avg prompt throughput: /;
const PREFIX_V0 = /^Prefix cache hit rate: GPU: (\S+?)%, CPU: (\S+?)%/;
const STAGES = /^SpecDecodeWorker stage times: (.*)$/;

/** Reads one periodic line, or returns null when the message is not one. */
export function readStatsLine(message: string): StatsPartial | null {
  return commonStatsLine(message) ?? readStatsLineByLabels(message);
}

const N = String.raw`([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)`;
/** vLLM V1's stats line exactly as it prints it (the engine index optional): the bulk of what a big log passes on. */
const COMMON_STATS = new RegExp(
  String.raw`^(?:Engine (\d+): )?Avg prompt throughput: ${N} tokens/s, Avg generation throughput: ${N} tokens/s, ` +
    String.raw`Running: ${N} reqs?, Waiting: ${N} reqs?, GPU KV cache usage: ${N} ?%, Prefix cache hit rate: ${N} ?%[,.]?\s*$`,
);

/**
 * readStatsLineByLabels's result for the common V1 line, read by one expression: the label reader
 * is general (any subset and order of labels, units checked one by one) and, over the few thousand
 * stats lines a thread sees, its code stays cold. null for anything else; a test checks the two
 * agree wherever this answers.
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
  if (c === 69 || c === 65) {
    // 'E'ngine / 'A'vg
    const m = STATS_START.exec(message);
    if (!m) return null;
    const partial = readLabels(message.slice(m[1] === undefined ? 0 : m[0].indexOf('Avg')), STATS_LABELS, 'stats');
    if (m[1] !== undefined) partial.fields.engine_index = Number(m[1]);
    return partial;
  }
  if (message.startsWith('Speculative metrics: ')) return readLabels(message.slice(21), SPEC_V0_LABELS, 'spec');
  if (message.startsWith('SpecDecoding metrics: ')) return readLabels(message.slice(22), SPEC_V1_LABELS, 'spec');
  if (message.startsWith('Prefix cache hit rate: GPU: ')) return readPrefixV0(message);
  if (message.startsWith('SpecDecodeWorker stage times: ')) return readStages(message);
  return null;
}

/** Splits `Label: value, Label: value` at the known labels only, then reads each value. */
function readLabels(text: string, labels: Readonly<Record<string, LabelSpec>>, kind: StatsKind): StatsPartial {
  const re = labelPattern(labels);
  const out: StatsPartial = { kind, fields: {}, bad: [] };
  re.lastIndex = 0;
  // each value runs from the end of its label to the start of the next label (or the end of the text)
  let label: string | null = null;
  let valueStart = 0;
  for (;;) {
    const m = re.exec(text);
    if (label !== null) readField(out, label, labels[label], text.slice(valueStart, m === null ? text.length : m.index));
    if (m === null) break;
    label = m[1] ?? '';
    valueStart = m.index + m[0].length;
  }
  return out;
}

function readField(out: StatsPartial, label: string, spec: LabelSpec | undefined, raw: string): void {
  if (!spec) return;
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

const LABEL_PATTERNS = new WeakMap<Readonly<Record<string, LabelSpec>>, RegExp>();

/** One expression per label table, longest labels first, compiled once (a stats line comes every few seconds of a log). */
function labelPattern(labels: Readonly<Record<string, LabelSpec>>): RegExp {
  let re = LABEL_PATTERNS.get(labels);
  if (!re) {
    const names = Object.keys(labels).sort((a, b) => b.length - a.length);
    re = new RegExp(`(?:^|, )(${names.map(escapeRegExp).join('|')}): `, 'g');
    LABEL_PATTERNS.set(labels, re);
  }
  return re;
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
  return unit === 'pct' ? percentToFraction(n) : n;
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
