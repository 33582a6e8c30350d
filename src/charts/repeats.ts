import { median } from '../analyze/bootstrap.js';

/**
 * Repeats of one configuration at one point of a chart (the same series and concurrency) are drawn
 * once: at their median (as the comparison combines them, docs/analysis.md), with the lowest and
 * highest repeat as its range. A line through every repeat zigzags up and down at each
 * concurrency, and a campaign of thousands of repeats would draw thousands of marks where a reader
 * can see one (issue 7).
 */

/** One measured point of a chart: `key` names the repeats that belong together. */
export interface RepeatPoint {
  readonly key: string;
  readonly values: readonly number[];
  readonly source: string;
}

/** The repeats of one key, combined: per value, the median and the range. */
export interface CombinedRepeats<P extends RepeatPoint> {
  /** The first repeat in source order, which carries the key's other fields. */
  readonly first: P;
  readonly runs: number;
  readonly median: number[];
  readonly min: number[];
  readonly max: number[];
  /** The first repeat's `file:line`, and how many others there are. */
  readonly source: string;
}

/** Groups points by key (in key order, then source order within a key) and combines each group. */
export function combineRepeats<P extends RepeatPoint>(points: readonly P[]): CombinedRepeats<P>[] {
  const groups = new Map<string, P[]>();
  for (const p of points) {
    const g = groups.get(p.key);
    if (g) g.push(p);
    else groups.set(p.key, [p]);
  }
  return [...groups.keys()].sort().map((key) => combine((groups.get(key) as P[]).sort((a, b) => compareSource(a.source, b.source))));
}

function combine<P extends RepeatPoint>(group: readonly P[]): CombinedRepeats<P> {
  const first = group[0] as P;
  const columns = first.values.map((_, i) => group.map((p) => p.values[i] as number));
  const others = group.length - 1;
  return {
    first,
    runs: group.length,
    median: columns.map(median),
    // a reduce, not a spread: a campaign can hold tens of thousands of repeats of one point
    min: columns.map((c) => c.reduce((a, b) => Math.min(a, b), Infinity)),
    max: columns.map((c) => c.reduce((a, b) => Math.max(a, b), -Infinity)),
    source: others === 0 ? first.source : `${first.source} (+${others} more)`,
  };
}

/** `file:line` in file order, then by line number (so `b.log:9` comes before `b.log:10`). */
function compareSource(a: string, b: string): number {
  const [fa, la] = splitSource(a);
  const [fb, lb] = splitSource(b);
  return fa < fb ? -1 : fa > fb ? 1 : la - lb;
}

function splitSource(source: string): [string, number] {
  const colon = source.lastIndexOf(':');
  const line = Number(source.slice(colon + 1));
  return colon < 0 || !Number.isFinite(line) ? [source, 0] : [source.slice(0, colon), line];
}
