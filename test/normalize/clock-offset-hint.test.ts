import { describe, expect, it } from 'vitest';
import type { TimelineRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { offsetHint } from '../../src/normalize/clock-offset-hint.js';
import type { ConfigSource } from '../../src/normalize/server-sources.js';
import { timelineRec } from '../helpers/records.js';

const HOUR = 3_600_000;
const at = (iso: string): number => Date.parse(`${iso}Z`);

/** A server log whose stats lines (every 10 s, year-less as vLLM writes them) show `running(t)` from `from` for `seconds`. */
function log(from: string, seconds: number, running: (second: number) => number): ConfigSource {
  const start = at(from);
  const timeline = Array.from({ length: seconds / 10 }, (_, i) => {
    const t = new Date(start + i * 10_000).toISOString();
    return timelineRec('s/serve.log', { time: `${t.slice(5, 10)} ${t.slice(11, 19)}`, running: running(i * 10) }, 10 + i).record as TimelineRecord;
  });
  return { file: asRelPath('s/serve.log'), kind: 'server', configs: [], timeline, failures: [], span: null };
}

/** A run on a clock `ahead` of the log's, `from` for `seconds` on the log's clock. */
const run = (from: string, seconds: number, concurrency: number | null, ahead = 2 * HOUR) => ({ window: { start: at(from) + ahead, end: at(from) + ahead + seconds * 1000, hasYear: true }, concurrency });

describe('offsetHint', () => {
  // a sweep of three loads, two minutes each with a minute idle between, on a server in UTC
  const sweep = log('2025-11-02T10:00:00', 540, (s) => (s < 120 ? 1 : s >= 180 && s < 300 ? 4 : s >= 360 && s < 480 ? 16 : 0));
  const runs = [run('2025-11-02T10:00:05', 110, 1), run('2025-11-02T10:03:05', 110, 4), run('2025-11-02T10:06:05', 110, 16)];

  it("names the one quarter hour that puts every run on the server's busy stats at its load", () => {
    expect(offsetHint(runs, [sweep])).toBe(2 * HOUR);
    expect(offsetHint(runs.map((r) => ({ ...r, window: { ...r.window, start: r.window.start - 5.5 * HOUR - 2 * HOUR, end: r.window.end - 5.5 * HOUR - 2 * HOUR } })), [sweep])).toBe(-5.5 * HOUR);
  });

  it('names none when several offsets fit (a server busy for hours) or none does', () => {
    const busyAllDay = log('2025-11-02T04:00:00', 12 * 3600, () => 16);
    expect(offsetHint([run('2025-11-02T10:00:05', 110, 16)], [busyAllDay])).toBeNull();
    // the loads tell offsets apart that the span alone would not: a quarter hour at 1 request, then one at 16
    const twoLoads = log('2025-11-02T10:00:00', 1800, (s) => (s < 900 ? 1 : 16));
    expect(offsetHint([run('2025-11-02T10:05:00', 120, 1)], [twoLoads])).toBe(2 * HOUR);
    expect(offsetHint([run('2025-11-02T10:05:00', 120, null)], [twoLoads])).toBeNull();
    expect(offsetHint([run('2025-11-02T10:00:05', 110, 1)], [log('2025-11-02T10:00:00', 600, () => 0)])).toBeNull();
    // a run whose concurrency the busy stretches all exceed
    expect(offsetHint([run('2025-11-02T10:00:05', 110, 1)], [log('2025-11-02T10:00:00', 600, () => 8)])).toBeNull();
  });
});
