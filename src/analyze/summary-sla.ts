import { loadAxis } from './load-axis.js';
import { UsageError } from '../core/errors.js';
import type { FieldValue } from '../core/types.js';
import { groupRows, identityColumns, medianOf, num, type Row } from './summary-groups.js';
import { setCell } from '../core/cells.js';

/** `--sla ttft=200,tpot=50` → `{ mean_ttft_ms: 200, mean_tpot_ms: 50 }` (`p99_ttft=` → `p99_ttft_ms`). */
export function parseSla(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const term of text.split(',').map((t) => t.trim()).filter((t) => t !== '')) {
    const m = /^([a-z0-9_.]+)\s*=\s*(\d+(?:\.\d+)?)$/i.exec(term);
    if (!m) throw new UsageError(`--sla term ${JSON.stringify(term)} is not metric=milliseconds`);
    const key = (m[1] ?? '').toLowerCase();
    const column = key.endsWith('_ms') ? key : /^(mean|median|std|p\d+(?:\.\d+)?)_/.test(key) ? `${key}_ms` : `mean_${key}_ms`;
    setCell(out, column, Number(m[2]));
  }
  if (Object.keys(out).length === 0) throw new UsageError('--sla needs at least one limit, e.g. ttft=200,tpot=50');
  return out;
}

/**
 * Per configuration (runs table rows, baseline included), the largest load meeting every limit
 * (each metric ≤ its limit), with the limited metrics and `metric` (what that load gives: output
 * throughput, so configurations compare by what they serve within the SLA) there; null with
 * `verdict: none meets` when no load does. Repeats of a load count by their median (`runs` says
 * how many), so one lucky repeat does not stretch the SLA. A load whose runs lack a limited
 * metric cannot meet it.
 */
export function slaTable(rows: readonly Row[], limits: Readonly<Record<string, number>>, axis = loadAxis(rows), metric = 'output_throughput', configColumns?: readonly string[]): Record<string, FieldValue>[] {
  const limited = Object.keys(limits);
  const cols = [...limited, ...(metric in limits ? [] : [metric])];
  const loaded = rows.filter((r) => num(r[axis]) !== null);
  return groupRows(loaded, identityColumns(loaded, axis, configColumns)).map(({ identity, rows: g }) => {
    const loads = groupRows(g, [axis]).map(({ rows: runs }) => ({
      load: num(runs[0]?.[axis]) as number,
      runs: runs.length,
      values: Object.fromEntries(cols.map((c) => [c, medianOf(runs, c)])),
    }));
    const ok = loads.filter((l) => limited.every((c) => l.values[c] !== null && (l.values[c] as number) <= (limits[c] as number)));
    const best = ok.sort((a, b) => b.load - a.load)[0];
    const out: Record<string, FieldValue> = { ...identity, [`largest_${axis}_meeting_sla`]: best ? best.load : null };
    for (const c of cols) setCell(out, c, best ? best.values[c] ?? null : null);
    out.runs = best ? best.runs : null;
    out.verdict = best ? 'meets' : 'none meets';
    return out;
  });
}
