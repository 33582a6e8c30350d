import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FieldValue, SourcePos } from '../core/types.js';
import { PROVENANCE_COLUMNS, RESULT_COLUMNS } from './schema.js';
import { setCell } from '../core/cells.js';
import { canonicalDataset } from './dataset.js';

/** One source of configuration values for a run, e.g. `server-log:tp-results/nosd-serve.log:2`. */
export interface ConfigLayer {
  readonly source: string;
  readonly fields: Readonly<Record<string, FieldValue>>;
}

/** Columns a configuration source never overwrites: results are measured, provenance is ours. */
const PROTECTED = new Set<string>([...PROVENANCE_COLUMNS, ...RESULT_COLUMNS]);
/** Facts about a source, not about the configuration. */
const META = new Set(['server_status', 'model_tag']);

/**
 * Fills a row from configuration layers given highest precedence first (manifest > linked server
 * log or launch command > the benchmark's own arguments > path). The first layer with a value
 * wins; a lower layer with a different value is reported as `config/conflict`, naming both.
 * Returns the sources that gave at least one kept value (or agreed with one), lowest precedence first.
 */
export function applyLayers(
  row: Record<string, FieldValue>,
  layers: readonly ConfigLayer[],
  sink: DiagnosticSink,
  at: SourcePos,
): string[] {
  const winner = new Map<string, { value: FieldValue; source: string }>();
  const used = new Set<string>();
  for (const layer of layers) {
    for (const [column, value] of Object.entries(layer.fields)) {
      if (value === null || META.has(column)) continue;
      if (PROTECTED.has(column) && !(column === 'label' && layer.source.startsWith('manifest:'))) continue;
      const won = winner.get(column);
      if (won === undefined) {
        winner.set(column, { value, source: layer.source });
        used.add(layer.source);
      } else if (sameValue(column, won.value, value)) {
        used.add(layer.source);
      } else {
        sink.report('config/conflict', at, column, `${won.source} = ${show(won.value)}`, `${layer.source} = ${show(value)}`);
      }
    }
  }
  for (const [column, { value }] of winner) setCell(row, column, value);
  return layers.map((l) => l.source).filter((s) => used.has(s)).reverse();
}

/**
 * Columns whose values are names of formats an engine spells in its own case (TensorRT-LLM's
 * `QuantAlgo` prints `FP8`, `NVFP4`, `W4A16_AWQ`; vLLM's flags take `fp8`, `awq`): one name,
 * lower case in the table (canonicalCase), equal in any case.
 */
const CASELESS_COLUMNS: ReadonlySet<string> = new Set(['quantization', 'kv_cache_dtype', 'dtype']);

/** The row's CASELESS_COLUMNS in lower case, as the other engines spell them. */
export function canonicalCase(row: Record<string, FieldValue>): void {
  for (const c of CASELESS_COLUMNS) {
    const v = row[c];
    if (typeof v === 'string' && v !== v.toLowerCase()) row[c] = v.toLowerCase();
  }
}

/** Equal as configuration: numbers and numeric strings compare by value; a model path matches its id. */
export function sameValue(column: string, a: FieldValue, b: FieldValue): boolean {
  if (keyOf(a) === keyOf(b)) return true;
  if (CASELESS_COLUMNS.has(column) && typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (column === 'dataset' && typeof a === 'string' && typeof b === 'string') return canonicalDataset(a, null) === canonicalDataset(b, null);
  if ((column === 'model' || column === 'draft_model') && typeof a === 'string' && typeof b === 'string') {
    // ModelScope's cache names a model's `.` as `___` (`Qwen2___5-72B-Instruct`)
    const tail = (s: string): string => s.replace(/\/+$/, '').replaceAll('___', '.').toLowerCase();
    const ta = tail(a);
    const tb = tail(b);
    return ta.endsWith(`/${tb}`) || tb.endsWith(`/${ta}`) || ta.split('/').at(-1) === tb.split('/').at(-1);
  }
  return false;
}

/** A value as a comparison key: numbers and numeric strings alike, `inf` = Infinity, null = "null". */
export function keyOf(v: FieldValue | undefined): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : '-Infinity';
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[+-]?inf(?:inity)?$/i.test(t)) return t.startsWith('-') ? '-Infinity' : 'Infinity';
    if (t !== '' && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return String(Number(t));
    return t;
  }
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function show(v: FieldValue): string {
  return typeof v === 'string' ? JSON.stringify(v) : keyOf(v);
}
