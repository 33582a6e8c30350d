/**
 * A count with its noun, singular for one: `1 run`, `2 runs`, `0 files`. The noun is given in the
 * singular; a noun whose plural is not `+s` gives its plural (`1 info`, `3 info`).
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
