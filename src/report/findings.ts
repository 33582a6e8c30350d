import { bestSpeedups } from '../analyze/summary-best.js';
import { BREAK_EVEN_FIELDS, breakEven } from '../analyze/summary-break-even.js';
import { CONFIG_IDENTITY } from '../analyze/summary-groups.js';
import type { FieldValue } from '../core/types.js';
import type { FailedConfiguration } from '../normalize/failed-configurations.js';

type Row = Readonly<Record<string, FieldValue>>;

/** Break-even sentences shown at most: a campaign of a thousand configurations has as many (the table has them all). */
export const MAX_BREAK_EVEN_FINDINGS = 12;

/** Failed configurations a finding names; the table has them all. */
const MAX_FAILED_NAMED = 5;

/** The energy metric findings speak of beside the headline one, when runs measured it. */
const ENERGY = 'energy_per_output_token_j';

/** Configuration columns a finding names too when they differ between runs of one method. */
const NAMED_WHEN_VARYING = ['model', 'engine', 'pp', 'quantization'];

/**
 * Plain-sentence findings for the top of a report, from the analysis summaries (src/analyze):
 * best speedup per method and dataset, the least energy per output token where runs measured it,
 * where the speedup crosses 1, and failed configurations.
 */
export function keyFindings(comparison: readonly Row[], failed: readonly FailedConfiguration[], metric = 'output_throughput', configColumns?: readonly string[]): string[] {
  const out: string[] = [];
  const best = bestSpeedups(comparison, { metric });
  if (best.length === 0) out.push(`No candidate run could be paired with a baseline run, so no ${metric} speedup was computed.`);
  const sourceOf = new Map(comparison.map((r) => [r.run_id, `${String(r.source_file)}:${String(r.source_line)}`]));
  const acceptanceOf = new Map(comparison.map((r) => [r.run_id, r.spec_acceptance_length]));
  // ten models' runs of one method are told apart by their model, or their sentences read the same
  const named = NAMED_WHEN_VARYING.filter((c) => variesWithinMethod(comparison, c));
  for (const b of best) {
    const where = describe(b, [...named, 'dataset', 'num_spec_tokens', 'label', 'tp', 'max_concurrency']);
    const source = sourceOf.get(b.run_id ?? null);
    // what it accepted there, where measured: how much of the speedup acceptance explains
    const accepted = acceptanceOf.get(b.run_id ?? null);
    const acceptance = typeof accepted === 'number' ? `, mean acceptance length ${fmt(accepted)}` : '';
    out.push(`${methodOf(b)}: best ${metric} speedup ${fmt(b.best_speedup)}× (${where}${acceptance}${source ? `, ${source}` : ''}).`);
  }
  // where runs measured their energy (InferenceX, AIPerf, trtllm-bench): how little each method used at best
  if (metric !== ENERGY && comparison.some((r) => typeof r[`speedup_${ENERGY}`] === 'number')) {
    for (const b of bestSpeedups(comparison, { metric: ENERGY })) {
      const speedup = b.best_speedup;
      if (typeof speedup !== 'number' || speedup <= 0) continue;
      const source = sourceOf.get(b.run_id ?? null);
      out.push(`${methodOf(b)}: at best ${fmt(1 / speedup)}× the baseline's energy per output token (${describe(b, [...named, 'dataset', 'num_spec_tokens', 'label', 'tp', 'max_concurrency'])}${source ? `, ${source}` : ''}).`);
    }
  }
  // configurations named as the break-even table names them (a swept server flag, multi_turn)
  const evens = breakEven(comparison, { metric, ...(configColumns ? { configColumns } : {}) });
  // what else told the configurations apart there (input lengths, a swept flag)
  const swept = Object.keys(evens[0] ?? {}).filter((c) => !BREAK_EVEN_FIELDS.includes(c) && !CONFIG_IDENTITY.includes(c));
  for (const e of evens.slice(0, MAX_BREAK_EVEN_FINDINGS)) {
    const who = `${methodOf(e)}${describeInline(e, [...named, 'num_spec_tokens', 'label', 'tp', 'dataset', ...swept])}`;
    if (e.break_even !== null && e.break_even !== undefined) out.push(`${who}: speedup ${String(e.verdict)} at ${String(e.axis)} ≈ ${String(e.break_even)} (break-even, interpolated on log2).`);
    else out.push(`${who}: speedup ${String(e.verdict)} at every measured ${String(e.axis)} (${String(e.points)} points).`);
  }
  if (evens.length > MAX_BREAK_EVEN_FINDINGS) out.push(`… and where the speedup crosses 1 for ${evens.length - MAX_BREAK_EVEN_FINDINGS} more configurations: tables/summary-break-even.csv.`);
  if (failed.length > 0) {
    const list = failed.slice(0, MAX_FAILED_NAMED).map((f) => `${f.source_file}:${f.source_line} (${f.exception})`).join('; ');
    const more = failed.length > MAX_FAILED_NAMED ? `; and ${failed.length - MAX_FAILED_NAMED} more: tables/failed-configurations.csv` : '';
    out.push(`${failed.length} configuration${failed.length === 1 ? '' : 's'} failed and produced no run: ${list}${more}.`);
  }
  return out;
}

/**
 * The method a finding speaks of: a run that states none is not the baseline's `none` (a
 * sweep's results that keep the method in a folder name or the server's flags only).
 */
function methodOf(r: Row): string {
  return r.spec_method === null || r.spec_method === undefined ? 'spec method not stated' : String(r.spec_method);
}

/** Whether `column` has two values among the rows of one speculative-decoding method. */
function variesWithinMethod(rows: readonly Row[], column: string): boolean {
  const seen = new Map<string, string>();
  for (const r of rows) {
    const v = r[column];
    if (v === null || v === undefined) continue;
    const method = String(r.spec_method ?? 'none');
    const first = seen.get(method);
    if (first === undefined) seen.set(method, String(v));
    else if (first !== String(v)) return true;
  }
  return false;
}

function describe(r: Row, columns: readonly string[]): string {
  return columns
    .filter((c) => r[c] !== null && r[c] !== undefined)
    .map((c) => `${c} ${String(r[c])}`)
    .join(', ');
}

function describeInline(r: Row, columns: readonly string[]): string {
  const d = describe(r, columns);
  return d === '' ? '' : ` (${d})`;
}

function fmt(v: FieldValue | undefined): string {
  return typeof v === 'number' ? v.toFixed(2) : 'n/a';
}
