import type { TimelineRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import { inWindow, type TimeWindow, timelineInstant } from './time-window.js';

/** The server-side columns a linked log adds to a run's row (schema.md §1). */
export type ServerAggregates = Partial<Record<'server_gen_throughput_mean' | 'server_kv_cache_usage_max' | 'server_running_max' | 'server_waiting_max', number>>;

/**
 * Server aggregates for one run. Rule: with a run window and timed stats lines, only the lines
 * inside the window count; without a window, the whole log counts only when the log serves
 * exactly this one run (`soleRun`); otherwise nothing is computed (a log shared by several runs
 * with no clock would mix their loads).
 */
export function serverAggregates(timeline: readonly TimelineRecord[], window: TimeWindow | null, soleRun: boolean): ServerAggregates {
  let lines: readonly TimelineRecord[];
  if (window) {
    lines = timeline.filter((t) => {
      const at = timelineInstant(t);
      return at !== null && inWindow(window, at);
    });
  } else if (soleRun) lines = timeline;
  else return {};
  const out: ServerAggregates = {};
  const gen = numbers(lines, 'gen_throughput');
  if (gen.length > 0) out.server_gen_throughput_mean = round(gen.reduce((a, b) => a + b, 0) / gen.length);
  const kv = numbers(lines, 'kv_cache_usage');
  if (kv.length > 0) out.server_kv_cache_usage_max = Math.max(...kv);
  const running = numbers(lines, 'running');
  if (running.length > 0) out.server_running_max = Math.max(...running);
  const waiting = numbers(lines, 'waiting');
  if (waiting.length > 0) out.server_waiting_max = Math.max(...waiting);
  return out;
}

function numbers(lines: readonly TimelineRecord[], column: string): number[] {
  return lines.map((t) => t.fields[column] as FieldValue | undefined).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
