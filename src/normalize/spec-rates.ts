/**
 * A run's speculative-decoding rates from the server stats lines printed with it: a line pasted
 * above its block in a write-up, or the intervals of a server's log that its benchmark's output
 * was tee'd into (attach-in-file.ts gives them to a run that measured none of its own).
 */
import { setCell } from '../core/cells.js';
import { seriesLine, seriesValue, type TimelineSeries } from '../core/timeline-series.js';
import type { FieldValue } from '../core/types.js';
import { countBelow, type Located, lineOfLocated, lineOfNumber, nearestBefore } from './line-search.js';

/** Server stats values that describe a run's speculative decoding (rates, not counters). */
export const SPEC_RATES = ['spec_acceptance_rate', 'spec_acceptance_length', 'spec_system_efficiency', 'spec_per_position_acceptance'] as const;

/** A stats line with speculative-decoding rates, as the attachment reads it. */
export interface RatesLine {
  readonly at: { readonly line: number };
  /** Its entry in its series (where its time is). */
  readonly entry: number;
  readonly fields: Readonly<Record<string, FieldValue>>;
  /** Draft tokens of the interval the line reports (vLLM V1 resets its counts at every line), the weight of its rates. */
  readonly drafted: number | null;
  /** Of those, the tokens accepted. */
  readonly accepted: number | null;
  /** vLLM V0's counts since its server started (`Speculative metrics:` with a system efficiency). */
  readonly sinceStart: SinceStart | null;
  /**
   * Requests running at the line, the weight of its rates when it counts no drafted tokens:
   * SGLang's `accept len` is over the request-steps of its interval (a fixed number of decode
   * steps of the running batch).
   */
  readonly running: number | null;
}

interface SinceStart {
  readonly accepted: number;
  readonly drafted: number;
  readonly emitted: number | null;
  readonly k: number | null;
}

/** The entries of a series that carry a speculative-decoding rate, with those rates and counts. */
export function ratesLines(series: TimelineSeries): RatesLine[] {
  const out: RatesLine[] = [];
  for (let i = 0; i < series.length; i++) {
    const fields: Record<string, FieldValue> = {};
    let any = false;
    for (const c of SPEC_RATES) {
      const v = seriesValue(series, c, i);
      if (v === undefined) continue;
      setCell(fields, c, v);
      any = true;
    }
    if (!any) continue;
    const count = (c: string): number | null => {
      const v = seriesValue(series, c, i);
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
    };
    const drafted = count('spec_draft_tokens');
    const accepted = count('spec_accepted_tokens');
    const v0 = seriesValue(series, 'spec_system_efficiency', i) !== undefined;
    out.push({
      at: { line: seriesLine(series, i) },
      entry: i,
      fields,
      drafted: v0 ? null : drafted,
      accepted: v0 ? null : accepted,
      sinceStart: v0 && drafted !== null && accepted !== null ? { accepted, drafted, emitted: count('spec_emitted_tokens'), k: count('num_spec_tokens') } : null,
      running: count('running'),
    });
  }
  return out;
}

/** Where a run's stats lines are looked for (1-based lines of its file). */
export interface RatesScope {
  /** Its lines are above this one (the line after its block: a line printed as the block was is the run's). */
  readonly line: number;
  /** Its lines come after this one: its previous run's block, or the line before its Markdown section. */
  readonly after: number;
  /** The first line of its section (1 without sections): no line above it speaks for the run. */
  readonly floor: number;
  /** The lines where a server started, in order: counts since a start do not go across one. */
  readonly starts: readonly number[];
}

/**
 * The rates of a run from the stats lines between its previous run (or its section's start, or
 * its server's start if later) and itself. Lines that count the tokens they drafted give their rates weighted by those counts (the
 * run's rates over all its intervals, where the last interval alone may be its tail), lines that
 * count none (SGLang's) by the requests running at each; vLLM V0's
 * counts since its server started give the difference between the nearest line and the last line
 * before the run (its server's earlier runs taken out), unless a server started in between;
 * otherwise the nearest line's rates. None when every line drafted nothing.
 */
export function runRates(items: readonly Located<RatesLine>[], scope: RatesScope): Located<RatesLine> | null {
  const { line, floor, starts } = scope;
  // a server that started after the previous run serves this one: the lines before its start are another's
  const after = Math.max(scope.after, starts[countBelow(starts, line, lineOfNumber) - 1] ?? 0);
  const end = countBelow(items, line, lineOfLocated);
  let start = end;
  while (start > 0 && lineOfLocated(items[start - 1] as Located<RatesLine>) > after) start--;
  const range = items.slice(start, end);
  // lines that drafted nothing (an idle server's, `nan%`) say nothing of the run's acceptance
  if (range.length === 0 || range.every(({ record }) => record.drafted === 0)) return null;
  const weighted = range.length > 1 ? weightedRates(range) : null;
  if (weighted) return weighted;
  const nearest = nearestBefore(items, line, after) as Located<RatesLine>;
  const before = start > 0 ? (items[start - 1] as Located<RatesLine>) : null;
  return (before && lineOfLocated(before) >= floor && ratesSince(before, nearest, starts)) || nearest;
}

/**
 * Rates weighted by drafted tokens, or else (no line counts them, none counts since its server's
 * start) by requests running; null unless every line has the weight and some weigh anything.
 */
function weightedRates(range: readonly Located<RatesLine>[]): Located<RatesLine> | null {
  const byDrafted = range.every(({ record }) => record.drafted !== null);
  const byRunning = !byDrafted && range.every(({ record }) => record.drafted === null && record.sinceStart === null && record.running !== null);
  if (!byDrafted && !byRunning) return null;
  const weight = (r: RatesLine): number => (byDrafted ? r.drafted : r.running) as number;
  const total = range.reduce((sum, { record }) => sum + weight(record), 0);
  if (total === 0) return null;
  // an interval that drafted nothing weighs nothing, and may print no rate (`nan%`)
  const counted = range.filter(({ record }) => weight(record) > 0);
  const fields: Record<string, FieldValue> = {};
  for (const c of SPEC_RATES) {
    const values = counted.map(({ record }) => ({ v: record.fields[c], w: weight(record) })).filter((x) => x.v !== undefined && x.v !== null);
    if (values.length !== counted.length) continue; // a rate some lines lack: no mean of the others stands for the run
    const mean = weightedMean(values as { v: FieldValue; w: number }[]);
    if (mean !== null) setCell(fields, c, mean);
  }
  // the rate from the counts themselves, not from the rounded percentages each line printed
  const accepted = byDrafted ? counted.reduce((sum, { record }) => (sum === null || record.accepted === null ? null : sum + record.accepted), 0 as number | null) : null;
  if (accepted !== null && accepted <= total) fields.spec_acceptance_rate = round(accepted / total);
  const last = (range.at(-1) as Located<RatesLine>).record;
  return { record: { at: last.at, entry: last.entry, fields, drafted: byDrafted ? total : null, accepted, sinceStart: null, running: null }, source: spanSource(range[0] as Located<RatesLine>, range.at(-1) as Located<RatesLine>) };
}

/** The weighted mean of numbers, or of equally long lists of numbers (per position); null for anything else. */
function weightedMean(values: readonly { v: FieldValue; w: number }[]): FieldValue | null {
  const total = values.reduce((sum, x) => sum + x.w, 0);
  if (values.every((x) => typeof x.v === 'number')) return round(values.reduce((sum, x) => sum + (x.v as number) * x.w, 0) / total);
  const lists = values.map((x) => x.v);
  const n = Array.isArray(lists[0]) ? lists[0].length : -1;
  if (n < 0 || !lists.every((l) => Array.isArray(l) && l.length === n && l.every((e) => typeof e === 'number'))) return null;
  return Array.from({ length: n }, (_, k) => round(values.reduce((sum, x) => sum + ((x.v as number[])[k] as number) * x.w, 0) / total));
}

/**
 * vLLM V0's rates over the tokens counted between two of its lines of one server: the acceptance
 * rate, and the system efficiency (emitted over the most that could be: k + 1 per k drafted) when
 * the lines say k. Null when the counts do not grow (a restarted server counts from zero) or the
 * lines say different k (a server relaunched with another).
 */
function ratesSince(before: Located<RatesLine>, last: Located<RatesLine>, starts: readonly number[]): Located<RatesLine> | null {
  const a = before.record.sinceStart;
  const b = last.record.sinceStart;
  if (!a || !b || b.drafted <= a.drafted || b.accepted < a.accepted) return null;
  // another K is another server (relaunched with no banner between): its counts are not these ones' continued
  if (a.k !== null && b.k !== null && a.k !== b.k) return null;
  if (countBelow(starts, last.record.at.line, lineOfNumber) > countBelow(starts, before.record.at.line + 1, lineOfNumber)) return null;
  const drafted = b.drafted - a.drafted;
  const fields: Record<string, FieldValue> = { spec_acceptance_rate: round((b.accepted - a.accepted) / drafted) };
  const k = b.k !== null && b.k === a.k && b.k > 0 ? b.k : null;
  if (k !== null && a.emitted !== null && b.emitted !== null && b.emitted >= a.emitted) {
    fields.spec_system_efficiency = round((b.emitted - a.emitted) / ((drafted / k) * (k + 1)));
  }
  return { record: { at: last.record.at, entry: last.record.entry, fields, drafted: null, accepted: null, sinceStart: b, running: null }, source: spanSource(before, last) };
}

/** `format:file:first-last`: where a value worked out from several lines comes from. */
function spanSource(first: Located<RatesLine>, last: Located<RatesLine>): string {
  return `${first.source}-${last.record.at.line}`;
}

/** Rates to 6 decimals: no representation noise of the arithmetic in the table. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
