/**
 * A long server log has tens of thousands of stats lines (SGLang logs a decode batch every few
 * hundred milliseconds): more than a chart a few hundred pixels wide can show, and an SVG of
 * megabytes. Above MAX_POINTS a series is drawn as MAX_POINTS equal time bins, each at the mean of
 * its lines; the timeline table keeps every line.
 */
export const MAX_POINTS = 1000;

/** One value of one series at one time; `key` names the series (e.g. log and column). */
export interface TimedValue {
  readonly key: string;
  readonly t: number;
  readonly value: number;
  /** `file:line` of the stats line. */
  readonly line: string;
}

/**
 * The values of each series with at most `max` points: series that have more are binned by time
 * (bin start time, mean value, the first line of the bin and how many it stands for). Input order
 * within a series must be by time; output keeps series order and time order.
 */
export function binByTime<V extends TimedValue>(values: readonly V[], max = MAX_POINTS): V[] {
  const bySeries = new Map<string, V[]>();
  for (const v of values) {
    const s = bySeries.get(v.key);
    if (s) s.push(v);
    else bySeries.set(v.key, [v]);
  }
  const out: V[] = [];
  for (const series of bySeries.values()) {
    if (series.length <= max) out.push(...series);
    else out.push(...bins(series, max));
  }
  return out;
}

function bins<V extends TimedValue>(series: readonly V[], max: number): V[] {
  const first = series[0] as V;
  const start = first.t;
  const width = ((series[series.length - 1] as V).t - start) / max;
  const out: V[] = [];
  let bin: V[] = [];
  let index = 0;
  const flush = (): void => {
    if (bin.length === 0) return;
    const head = bin[0] as V;
    let sum = 0;
    for (const v of bin) sum += v.value;
    out.push({ ...head, t: width > 0 ? start + index * width : head.t, value: sum / bin.length, line: bin.length === 1 ? head.line : `${head.line} (+${bin.length - 1} more)` });
    bin = [];
  };
  const perBin = Math.ceil(series.length / max);
  series.forEach((v, i) => {
    // all at one instant (no clock): bins of equal line counts instead
    const at = width > 0 ? Math.min(max - 1, Math.floor((v.t - start) / width)) : Math.floor(i / perBin);
    if (at !== index) {
      flush();
      index = at;
    }
    bin.push(v);
  });
  flush();
  return out;
}
