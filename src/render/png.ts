import { Resvg } from '@resvg/resvg-js';
import { exposedCollector } from '../core/gc.js';

/**
 * The most pixels a PNG is rendered with: resvg holds 4 bytes a pixel (32 Mpx: 128 MB). A chart
 * the catalogue draws stays far below it (LEGIBLE, charts/legibility.ts); a figure a user asked
 * for that is larger (a tall ladder) is rendered at the zoom that fits, not with gigabytes.
 */
export const MAX_PNG_PIXELS = 32_000_000;

/** PNG from SVG at 2× (retina), with system fonts; bytes vary by machine, so tests check size only. */
export function svgToPng(svg: string, zoom = 2): Uint8Array {
  const fitted = fittingZoom(svgSize(svg), zoom);
  const resvg = new Resvg(svg, { fitTo: { mode: 'zoom', value: fitted }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return resvg.render().asPng();
}

/** `zoom`, or the smaller one at which a figure of `size` has at most MAX_PNG_PIXELS. */
export function fittingZoom(size: { width: number; height: number } | null, zoom: number): number {
  if (size === null) return zoom;
  const pixels = size.width * size.height * zoom * zoom;
  return pixels <= MAX_PNG_PIXELS ? zoom : zoom * Math.sqrt(MAX_PNG_PIXELS / pixels);
}

/** The width and height of an SVG's root element (Vega writes both), or null when it has none. */
export function svgSize(svg: string): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/.exec(svg.slice(0, 4096))?.[0];
  const width = Number(root?.match(/\swidth="([\d.]+)"/)?.[1]);
  const height = Number(root?.match(/\sheight="([\d.]+)"/)?.[1]);
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? { width, height } : null;
}

/**
 * PNGs of several SVGs, in order, one at a time, each given out as it is rendered (a caller writes
 * it and lets it go). A render's pixmap (tens of MB for a tall figure at 2×) and font database
 * live in native memory V8 does not count. They are freed by finalizers that run only after a
 * collection has found their wrappers, on a later turn of the event loop. Rendered in one
 * synchronous loop, a report's figures piled up (ten figures: 135 MB resident, thirty: 310 MB),
 * so each render is followed by a young-generation collection (the wrappers are young; about a
 * millisecond) and a turn of the loop.
 */
export async function* svgsToPngs(svgs: readonly string[], zoom = 2): AsyncGenerator<Uint8Array> {
  for (const svg of svgs) {
    yield svgToPng(svg, zoom);
    exposedCollector()?.({ type: 'minor' });
    await new Promise((resolve) => setImmediate(resolve));
  }
}
