import { Resvg } from '@resvg/resvg-js';

/** PNG from SVG at 2× (retina), with system fonts; bytes vary by machine, so tests check size only. */
export function svgToPng(svg: string, zoom = 2): Uint8Array {
  const resvg = new Resvg(svg, { fitTo: { mode: 'zoom', value: zoom }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return resvg.render().asPng();
}
