/**
 * A domain symmetric around 1 in log space ([1/m, m]), so a diverging scale puts 1.0 at its
 * neutral colour even when the data are lopsided (`domainMid` alone does not centre it then).
 */
export function symmetricRatioDomain(values: readonly number[]): [number, number] {
  let m = 1.1;
  for (const v of values) {
    if (!(v > 0) || !Number.isFinite(v)) continue;
    m = Math.max(m, v, 1 / v);
  }
  const r = Math.round(m * 1000) / 1000;
  return [Math.round((1000 / r)) / 1000, r];
}

/** Whether a cell colour at this ratio is dark enough to need white text. */
export function darkCell(value: number, domain: readonly [number, number]): boolean {
  return Math.abs(Math.log(value)) > 0.6 * Math.log(domain[1]);
}
