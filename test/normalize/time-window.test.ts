import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockOffsetText } from '../../src/core/messages.js';
import { parseClockOffset, parseInstant, shiftWindow, spanDistance, spanOverlaps, type Instant } from '../../src/normalize/time-window.js';

const HOUR = 3_600_000;
const at = (text: string): Instant => parseInstant(text) as Instant;

describe('clock offsets', () => {
  it('reads hours, with minutes if any, either way, as time zones go', () => {
    expect(['+2', '2', '-5:30', '+02:00', '-0:45', '14', '+26'].map(parseClockOffset)).toEqual([2 * HOUR, 2 * HOUR, -5.5 * HOUR, 2 * HOUR, -0.75 * HOUR, 14 * HOUR, 26 * HOUR]);
    for (const bad of ['', 'x', '+2h', '5:3', '5:60', '+27', '1.5', 'UTC+2', '+2:00:00']) expect(parseClockOffset(bad)).toBeNull();
    // and writes them back as it reads them
    for (const text of ['+2', '-5:30', '+0:45', '-12']) expect(clockOffsetText(parseClockOffset(text) as number)).toBe(text);
  });

  it('measures how far a log’s stats lie from a run, before or after it, on either kind of clock', () => {
    const run = { start: at('2025-11-02T12:00:00').ms, end: at('2025-11-02T12:01:00').ms, hasYear: true };
    expect(spanDistance(run, at('11-02 09:00:00'), at('11-02 10:00:00'))).toBe(-2 * HOUR);
    expect(spanDistance(run, at('2025-11-02T13:01:00'), at('2025-11-02T14:00:00'))).toBe(HOUR);
    expect(spanDistance(run, at('11-02 11:00:00'), at('11-02 12:00:30'))).toBe(0);
    // read on the logs' clock two hours behind, the run lies in their span
    expect(spanDistance(shiftWindow(run, -2 * HOUR), at('11-02 09:00:00'), at('11-02 10:00:00'))).toBe(0);
  });

  it('calls a span overlapping, within the slack, exactly when its distance is within the slack', () => {
    const ms = fc.integer({ min: 0, max: 10 * HOUR });
    fc.assert(
      fc.property(ms, ms, ms, ms, fc.integer({ min: 0, max: HOUR }), (a, b, c, d, slack) => {
        const base = Date.UTC(2025, 10, 2);
        const w = { start: base + Math.min(a, b), end: base + Math.max(a, b), hasYear: true };
        const first = { ms: base + Math.min(c, d), hasYear: true };
        const last = { ms: base + Math.max(c, d), hasYear: true };
        // the plain definition: the span, widened by the slack, meets the window
        expect(spanOverlaps(w, first, last, slack)).toBe(first.ms - slack <= w.end && last.ms + slack >= w.start);
      }),
    );
  });
});
