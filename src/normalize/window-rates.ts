/**
 * A run's speculative-decoding rates from the server log it is linked to (link-runs.ts): the
 * acceptance lines its server printed while the run ran. A result file of `vllm bench serve`
 * before its own acceptance section, or of any other client, says nothing about acceptance; its
 * server's log does, every interval.
 */
import type { TimelineSeries } from '../core/timeline-series.js';
import { type Located, lineOfLocated } from './line-search.js';
import { type RatesLine, ratesLines, runRates } from './spec-rates.js';
import { type ServedLines, servedEntries } from './server-aggregates.js';
import type { ConfigSource } from './server-sources.js';

/** A log's acceptance lines in line order, each with the series it is an entry of. */
interface LogRates {
  readonly items: readonly Located<RatesLine>[];
  readonly series: readonly TimelineSeries[];
  /** The lines where a server started in the log: counts since a start do not go across one. */
  readonly starts: readonly number[];
}

const LOGS = new WeakMap<ConfigSource, LogRates>();

/**
 * The rates of a run from the acceptance lines of its linked log that speak for it, the lines
 * of its server aggregates (server-aggregates.ts: those in its window, or the whole log when it
 * serves this run alone): their rates weighted by the tokens each drafted (SGLang's, which count
 * none, by the requests running), or vLLM V0's counts since start differenced across the window
 * (spec-rates.ts). Null when no line counts, or when none drafted a token (an idle server's `nan%`).
 */
export function windowRates(log: ConfigSource, served: ServedLines): Located<RatesLine> | null {
  const { items, series, starts } = logRates(log);
  const selections = new Map<TimelineSeries, ReturnType<typeof servedEntries>>();
  const speaks = (k: number): boolean => {
    const s = series[k] as TimelineSeries;
    let selection = selections.get(s);
    if (!selection) selections.set(s, (selection = servedEntries(s, served)));
    const { entry } = (items[k] as Located<RatesLine>).record;
    return entry >= selection.from && entry < selection.to && selection.counts(entry);
  };
  let first = -1;
  let last = -1;
  for (let k = 0; k < items.length; k++) {
    if (!speaks(k)) continue;
    if (first < 0) first = k;
    last = k;
  }
  if (first < 0) return null;
  return runRates(items, { line: lineOfLocated(items[last] as Located<RatesLine>) + 1, after: lineOfLocated(items[first] as Located<RatesLine>) - 1, floor: 1, starts });
}

/** A log's acceptance lines, read once per log (many runs share one server). */
function logRates(log: ConfigSource): LogRates {
  let rates = LOGS.get(log);
  if (rates) return rates;
  const found: { item: Located<RatesLine>; series: TimelineSeries }[] = [];
  for (const { series } of log.timeline) {
    for (const record of ratesLines(series)) found.push({ item: { record, source: `server-stats:${log.file}:${record.at.line}` }, series });
  }
  found.sort((a, b) => lineOfLocated(a.item) - lineOfLocated(b.item));
  const starts = log.configs.filter((c) => c.origin === 'server-log').map((c) => c.at.line).sort((a, b) => a - b);
  rates = { items: found.map((f) => f.item), series: found.map((f) => f.series), starts };
  LOGS.set(log, rates);
  return rates;
}
