/**
 * The scale of a measured value: its own range, zero left out (throughputs of 4,000 to 4,400 tok/s
 * are not drawn as a flat line near the top), unless every value is the same. A domain of one value
 * has no step for Vega to format its ticks by: its one tick read `131.200000`. From zero, the one
 * value sits at its height on an axis that reads as usual.
 */
export function valueScale(values: readonly number[]): { zero: boolean } {
  return { zero: new Set(values).size < 2 };
}
