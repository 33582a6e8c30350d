import type { TimelineRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import { seriesValue } from '../core/timeline-series.js';
import { inWindow, seriesClock, type TimeWindow } from './time-window.js';

/** The server-side columns a linked log adds to a run's row (schema.md §1). */
export type ServerAggregates = Partial<Record<'server_gen_throughput_mean' | 'server_kv_cache_usage_max' | 'server_running_max' | 'server_waiting_max', number>>;

/**
 * Server aggregates for one run. Rule: with a run window and timed stats lines, only the lines
 * inside the window count; without a window, the whole log counts only when the log serves
 * exactly this one run (`soleRun`); otherwise nothing is computed (a log shared by several runs
 * with no clock would mix their loads).
 */
export function serverAggregates(timeline: readonly TimelineRecord[], window: TimeWindow | null, soleRun: boolean): ServerAggregates {
  if (!window && !soleRun) return {};
  const gen = new Mean();
  const kv = new Max();
  const running = new Max();
  const waiting = new Max();
  for (const { series } of timeline) {
    const clock = window ? seriesClock(series) : null;
    for (let i = 0; i < series.length; i++) {
      if (window && clock) {
        const ms = clock.ms[i] as number;
        if (Number.isNaN(ms) || !inWindow(window, { ms, hasYear: clock.hasYear[i] === 1 })) continue;
      }
      gen.add(seriesValue(series, 'gen_throughput', i));
      kv.add(seriesValue(series, 'kv_cache_usage', i));
      running.add(seriesValue(series, 'running', i));
      waiting.add(seriesValue(series, 'waiting', i));
    }
  }
  const out: ServerAggregates = {};
  if (gen.n > 0) out.server_gen_throughput_mean = round(gen.sum / gen.n);
  if (kv.value !== null) out.server_kv_cache_usage_max = kv.value;
  if (running.value !== null) out.server_running_max = running.value;
  if (waiting.value !== null) out.server_waiting_max = waiting.value;
  return out;
}

/** A finite number, or null. */
function finite(v: FieldValue | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

class Mean {
  sum = 0;
  n = 0;
  add(v: FieldValue | undefined): void {
    const x = finite(v);
    if (x === null) return;
    this.sum += x;
    this.n++;
  }
}

class Max {
  value: number | null = null;
  add(v: FieldValue | undefined): void {
    const x = finite(v);
    if (x !== null && (this.value === null || x > this.value)) this.value = x;
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
