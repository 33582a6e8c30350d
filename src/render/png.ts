import { Resvg } from '@resvg/resvg-js';
import { exposedCollector } from '../core/gc.js';

/** PNG from SVG at 2× (retina), with system fonts; bytes vary by machine, so tests check size only. */
export function svgToPng(svg: string, zoom = 2): Uint8Array {
  const resvg = new Resvg(svg, { fitTo: { mode: 'zoom', value: zoom }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return resvg.render().asPng();
}

/**
 * PNGs of several SVGs, in order, one at a time. A render's pixmap (tens of MB for a tall figure
 * at 2×) and font database live in native memory V8 does not count. They are freed by finalizers that run only
 * after a collection has found their wrappers, on a later turn of the event loop. Rendered in one
 * synchronous loop, a report's figures piled up (ten figures: 135 MB resident, thirty: 310 MB),
 * so each render is followed by a young-generation collection (the wrappers are young; about a
 * millisecond) and a turn of the loop.
 */
export async function svgsToPngs(svgs: readonly string[], zoom = 2): Promise<Uint8Array[]> {
  const pngs: Uint8Array[] = [];
  for (const svg of svgs) {
    pngs.push(svgToPng(svg, zoom));
    exposedCollector()?.({ type: 'minor' });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return pngs;
}
