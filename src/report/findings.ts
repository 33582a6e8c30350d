import { bestSpeedups } from '../analyze/summary-best.js';
import { breakEven } from '../analyze/summary-break-even.js';
import type { FieldValue } from '../core/types.js';
import type { FailedConfiguration } from '../normalize/failed-configurations.js';

type Row = Readonly<Record<string, FieldValue>>;

/**
 * Plain-sentence findings for the top of a report, from the analysis summaries (src/analyze):
 * best speedup per method and dataset, where the speedup crosses 1, and failed configurations.
 */
export function keyFindings(comparison: readonly Row[], failed: readonly FailedConfiguration[], metric = 'output_throughput'): string[] {
  const out: string[] = [];
  const best = bestSpeedups(comparison, { metric });
  if (best.length === 0) out.push(`No candidate run could be paired with a baseline run, so no ${metric} speedup was computed.`);
  const sourceOf = new Map(comparison.map((r) => [r.run_id, `${String(r.source_file)}:${String(r.source_line)}`]));
  for (const b of best) {
    const where = describe(b, ['dataset', 'num_spec_tokens', 'label', 'tp', 'max_concurrency']);
    const source = sourceOf.get(b.run_id ?? null);
    out.push(`${String(b.spec_method ?? 'none')}: best ${metric} speedup ${fmt(b.best_speedup)}× (${where}${source ? `, ${source}` : ''}).`);
  }
  for (const e of breakEven(comparison, { metric })) {
    const who = `${String(e.spec_method ?? 'none')}${describeInline(e, ['num_spec_tokens', 'label', 'tp', 'dataset'])}`;
    if (e.break_even !== null && e.break_even !== undefined) out.push(`${who}: speedup ${String(e.verdict)} at ${String(e.axis)} ≈ ${String(e.break_even)} (break-even, interpolated on log2).`);
    else out.push(`${who}: speedup ${String(e.verdict)} at every measured ${String(e.axis)} (${String(e.points)} points).`);
  }
  if (failed.length > 0) {
    const list = failed.map((f) => `${f.source_file}:${f.source_line} (${f.exception})`).join('; ');
    out.push(`${failed.length} configuration${failed.length === 1 ? '' : 's'} failed and produced no run: ${list}.`);
  }
  return out;
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
