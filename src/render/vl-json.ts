import type { TopLevelSpec } from 'vega-lite';

/** The spec as stable, indented JSON with its data inlined: open it in the Vega editor as is. */
export function vlJson(spec: TopLevelSpec): string {
  return `${JSON.stringify(spec, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}
