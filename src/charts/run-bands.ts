/**
 * The runs a server's log served, as stretches of its timeline (the server-timeline chart's
 * shading): the stats lines the timeline table gives a run (its `run_id`) span its stretch, from
 * one stats interval before its first line (a line reports the interval it ends) to its last.
 */
import { loadAxis } from '../analyze/load-axis.js';
import { num, text } from './fields.js';
import type { Row } from './types.js';

export interface RunBand {
  /** Seconds since the log's first stats line. */
  readonly t0: number;
  readonly t1: number;
  readonly mid: number;
  /** The run's load point (`c=8`, `4 req/s`, `bs=8`), or empty when the runs table does not say. */
  readonly load: string;
  /** Where the run was read: `file:line`. */
  readonly run: string;
  /** 0 or 1, alternating, so runs back to back are told apart. */
  readonly shade: number;
}

/** A stats line of one log: its time on the chart and the run it served, if any. */
export interface ServedLine {
  readonly t: number;
  readonly runId: string | null;
}

/** The stretches of the runs that `lines` (one log's, in time order) served; `runs` names them. */
export function runBands(lines: readonly ServedLine[], runs: readonly Row[]): RunBand[] {
  const spans = new Map<string, { first: number; last: number }>();
  for (const { t, runId } of lines) {
    if (runId === null) continue;
    const s = spans.get(runId);
    if (s) {
      s.first = Math.min(s.first, t);
      s.last = Math.max(s.last, t);
    } else spans.set(runId, { first: t, last: t });
  }
  if (spans.size === 0) return [];
  const interval = medianGap(lines.map((l) => l.t));
  const byId = new Map(runs.map((r) => [text(r.run_id), r]));
  const served = [...spans.keys()].flatMap((id): Row[] => {
    const run = byId.get(id);
    return run ? [run] : [];
  });
  const axis = loadAxis(served);
  return [...spans.entries()]
    .map(([id, s]) => {
      const run = byId.get(id);
      const t0 = Math.max(0, s.first - interval);
      return { t0, t1: s.last, mid: (t0 + s.last) / 2, load: run ? loadText(axis, num(run[axis])) : '', run: run ? `${String(run.source_file)}:${String(run.source_line)}` : id, shade: 0 };
    })
    .sort((a, b) => a.t0 - b.t0 || a.t1 - b.t1 || (a.run < b.run ? -1 : 1))
    .map((b, i) => ({ ...b, shade: i % 2 }));
}

/** The usual time between stats lines (the median of the gaps), 0 with fewer than two times. */
function medianGap(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - (sorted[i] as number)).filter((g) => g > 0).sort((a, b) => a - b);
  return gaps.length === 0 ? 0 : (gaps[Math.floor((gaps.length - 1) / 2)] as number);
}

function loadText(axis: string, value: number | null): string {
  if (value === null) return '';
  const v = Number.isFinite(value) ? String(value) : 'inf';
  return axis === 'request_rate' ? `${v} req/s` : axis === 'batch_size' ? `bs=${v}` : `c=${v}`;
}
