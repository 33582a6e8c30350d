/**
 * A run's speculative-decoding rates from the server log it is linked to (link-runs.ts): the
 * acceptance lines its server printed while the run ran. A result file of `vllm bench serve`
 * before its own acceptance section, or of any other client, says nothing about acceptance; its
 * server's log does, every interval.
 */
import { type Located, lineOfLocated } from './line-search.js';
import { type RatesLine, ratesLines, runRates } from './spec-rates.js';
import type { ServedLines } from './server-aggregates.js';
import type { ConfigSource } from './server-sources.js';
import { inWindow, seriesClock } from './time-window.js';

/** A log's acceptance lines in line order, with each line's instant (NaN ms without a time). */
interface TimedRates {
  readonly items: readonly Located<RatesLine>[];
  readonly ms: Float64Array;
  readonly hasYear: Uint8Array;
  /** The lines where a server started in the log: counts since a start do not go across one. */
  readonly starts: readonly number[];
}

const LOGS = new WeakMap<ConfigSource, TimedRates>();

/**
 * The rates of a run from the acceptance lines of its linked log that speak for it (the lines of
 * its server aggregates, server-aggregates.ts: those in its window, or the whole log when it
 * serves this run alone): their rates weighted by the tokens each drafted, or vLLM V0's counts
 * since start differenced across the window (spec-rates.ts). Null when no line counts, or when
 * none drafted a token (an idle server's `nan%`).
 */
export function windowRates(log: ConfigSource, served: ServedLines): Located<RatesLine> | null {
  if (served.kind === 'between') return null; // a tee'd log's lines are attach-in-file.ts's
  const timed = timedRates(log);
  const { items, starts } = timed;
  if (items.length === 0) return null;
  let first = 0;
  let last = items.length - 1;
  if (served.kind === 'window') {
    first = -1;
    for (let k = 0; k < items.length; k++) {
      const ms = timed.ms[k] as number;
      if (Number.isNaN(ms) || !inWindow(served.window, { ms, hasYear: timed.hasYear[k] === 1 })) continue;
      if (first < 0) first = k;
      last = k;
    }
    if (first < 0) return null;
  }
  const range = items.slice(first, last + 1);
  if (range.every(({ record }) => record.drafted === 0)) return null;
  const after = served.kind === 'window' ? lineOfLocated(items[first] as Located<RatesLine>) - 1 : 0;
  return runRates(items, { line: lineOfLocated(items[last] as Located<RatesLine>) + 1, after, floor: 1, starts });
}

/** A log's acceptance lines with their times, read once per log (many runs share one server). */
function timedRates(log: ConfigSource): TimedRates {
  let timed = LOGS.get(log);
  if (timed) return timed;
  const found: { item: Located<RatesLine>; ms: number; hasYear: number }[] = [];
  for (const { series } of log.timeline) {
    const clock = seriesClock(series);
    for (const record of ratesLines(series)) {
      found.push({ item: { record, source: `server-log:${log.file}:${record.at.line}` }, ms: clock.ms[record.entry] as number, hasYear: clock.hasYear[record.entry] as number });
    }
  }
  found.sort((a, b) => lineOfLocated(a.item) - lineOfLocated(b.item));
  const starts = log.configs.filter((c) => c.origin === 'server-log').map((c) => c.at.line).sort((a, b) => a - b);
  timed = { items: found.map((f) => f.item), ms: Float64Array.from(found, (f) => f.ms), hasYear: Uint8Array.from(found, (f) => f.hasYear), starts };
  LOGS.set(log, timed);
  return timed;
}
