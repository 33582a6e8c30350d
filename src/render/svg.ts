import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import { useTextWidths } from './text-width.js';

/**
 * Renders a Vega-Lite spec to SVG headlessly (no canvas, no DOM), with a seeded random source and
 * generated ids renumbered, so the same spec always gives the same bytes on one machine.
 */
export async function renderSvg(spec: TopLevelSpec, idPrefix = 'bl'): Promise<string> {
  // loaded on first use: vega and vega-lite are heavy, and most commands never draw
  const [vega, { compileSpec }] = await Promise.all([import('vega'), import('./compile.js')]);
  seedRandom(vega, 42);
  // texts measured as a font draws them, not at Vega's headless guess of 0.8 em a character
  useTextWidths(vega);
  const view = new vega.View(vega.parse(compileSpec(spec).vega), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return normalizeSvgIds(svg, idPrefix);
}

/** Renumbers (and prefixes, so several SVGs can share one page) `id="…"` definitions (clip paths, gradients) and their references by first appearance. */
export function normalizeSvgIds(svg: string, prefix = 'bl'): string {
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\bid="([^"]+)"/g)) {
    const id = m[1] ?? '';
    if (!ids.has(id)) ids.set(id, `${prefix}-${ids.size + 1}`);
  }
  if (ids.size === 0) return svg;
  return svg.replace(/\bid="([^"]+)"|url\(#([^)]+)\)|href="#([^"]+)"/g, (whole, a?: string, b?: string, c?: string) => {
    const id = a ?? b ?? c ?? '';
    const next = ids.get(id);
    if (next === undefined) return whole;
    if (a !== undefined) return `id="${next}"`;
    if (b !== undefined) return `url(#${next})`;
    return `href="#${next}"`;
  });
}

/** vega exports setRandom/randomLCG at run time; its typings omit them. */
interface VegaRandom {
  readonly setRandom?: (random: () => number) => void;
  readonly randomLCG?: (seed: number) => () => number;
}

function seedRandom(vega: typeof Vega, seed: number): void {
  const r = vega as unknown as VegaRandom;
  if (r.setRandom && r.randomLCG) r.setRandom(r.randomLCG(seed));
}
