import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { CHARTS } from '../../src/charts/catalogue.js';
import { compileSpec } from '../../src/render/compile.js';
import { fittingZoom, MAX_PNG_PIXELS, svgSize, svgToPng, svgsToPngs } from '../../src/render/png.js';
import { applyBlogPreset, captionFor } from '../../src/render/preset.js';
import { normalizeSvgIds, renderSvg } from '../../src/render/svg.js';
import { addSvgTooltips } from '../../src/render/svg-tooltips.js';
import { vlJson } from '../../src/render/vl-json.js';
import { sampleComparison, sampleRuns } from '../charts/sample-rows.js';

function heatmap(): TopLevelSpec {
  const r = CHARTS['speedup-heatmap'].build(sampleComparison(), {});
  if (!r.ok) throw new Error(r.reason);
  return r.spec;
}

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('SVG rendering', () => {
  it('is deterministic: same spec, same bytes, ids renumbered with the prefix', async () => {
    const a = await renderSvg(heatmap(), 'hm');
    const other = CHARTS.pareto.build(sampleRuns(), {});
    if (other.ok) await renderSvg(other.spec); // advances Vega's global id counters in between
    const b = await renderSvg(heatmap(), 'hm');
    expect(a).toBe(b);
    expect(a.startsWith('<svg')).toBe(true);
    const ids = [...a.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => /^hm-\d+$/.test(id ?? ''))).toBe(true);
    expect(a).toContain('2.20×');
  });

  it('renumbers ids and their references by first appearance', () => {
    const svg = '<svg><clipPath id="clip7"></clipPath><g clip-path="url(#clip7)"></g><linearGradient id="gradient_3"/><path fill="url(#gradient_3)"/></svg>';
    expect(normalizeSvgIds(svg, 'x')).toBe('<svg><clipPath id="x-1"></clipPath><g clip-path="url(#x-1)"></g><linearGradient id="x-2"/><path fill="url(#x-2)"/></svg>');
  });

  it('adds a native tooltip title to every labelled mark, keeping the escaping', () => {
    const svg = '<svg><path aria-label="model: &lt;img src=x&gt;" role="graphics-symbol" d="M0,0"/><path d="M1,1"/></svg>';
    expect(addSvgTooltips(svg)).toBe('<svg><path aria-label="model: &lt;img src=x&gt;" role="graphics-symbol" d="M0,0"><title>model: &lt;img src=x&gt;</title></path><path d="M1,1"/></svg>');
  });
});

describe('PNG rendering', () => {
  it('rasterizes at 2× and is not blank', async () => {
    const svg = await renderSvg(heatmap());
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    const height = Number(/height="(\d+)"/.exec(svg)?.[1]);
    const png = svgToPng(svg);
    expect([...png.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(pngSize(png)).toEqual({ width: width * 2, height: height * 2 });
    expect(png.byteLength).toBeGreaterThan(5000);
  });

  it('renders several figures one at a time, in order, each as it renders alone', async () => {
    const heat = await renderSvg(heatmap());
    const other = CHARTS.pareto.build(sampleRuns(), {});
    if (!other.ok) throw new Error(other.reason);
    const pareto = await renderSvg(other.spec);
    const pngs: Uint8Array[] = [];
    for await (const png of svgsToPngs([heat, pareto, heat])) pngs.push(png);
    expect(pngs.map((p) => Buffer.from(p).toString('base64'))).toEqual([heat, pareto, heat].map((s) => Buffer.from(svgToPng(s)).toString('base64')));
    expect(pngSize(pngs[1] as Uint8Array)).not.toEqual(pngSize(pngs[0] as Uint8Array));
  });

  it('renders a figure too large for 2× at the zoom that fits MAX_PNG_PIXELS (4 bytes a pixel while rendering)', () => {
    // a user's ladder of thousands of bars was 1,315 × 226,136 px: at 2×, a 4.8 GB pixmap
    const tall = '<svg xmlns="http://www.w3.org/2000/svg" width="1300" height="200000" viewBox="0 0 1300 200000"><rect width="1300" height="200000" fill="#0072B2"/></svg>';
    const png = pngSize(svgToPng(tall));
    expect(png.width * png.height).toBeLessThanOrEqual(MAX_PNG_PIXELS);
    expect(png.width * png.height).toBeGreaterThan(MAX_PNG_PIXELS * 0.98);
    expect(png.height / png.width).toBeCloseTo(200000 / 1300, 0);
  });

  it('reads an SVG root element size and zooms only what is too large', () => {
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" class="marks" width="781" height="512.5" viewBox="0 0 781 512.5"><g width="9" height="9"/></svg>')).toEqual({ width: 781, height: 512.5 });
    expect(svgSize('<svg viewBox="0 0 10 10"></svg>')).toBeNull();
    expect(svgSize('<?xml version="1.0"?><svg height="0" width="10"/>')).toBeNull();
    expect(fittingZoom({ width: 1000, height: 1000 }, 2)).toBe(2);
    expect(fittingZoom(null, 2)).toBe(2);
    const z = fittingZoom({ width: 1000, height: 100_000 }, 2);
    expect(1000 * z * 100_000 * z).toBeCloseTo(MAX_PNG_PIXELS, -3);
  });
});

describe('Vega-Lite JSON and the blog preset', () => {
  it('writes the spec with its data inlined, and a caption naming engines and models', () => {
    const rows = sampleRuns();
    const caption = captionFor([...rows, { engine: 'sglang', engine_version: '0.5.1', model: 'acme/other-1b' }]);
    expect(caption).toBe('sglang 0.5.1, vllm 0.11.0 · models: acme/other-1b, acme/tiny-8b');
    // the GPUs the runs name (a runner's manifest, trtllm-bench), when they name any
    expect(captionFor([{ engine: 'vllm', model: 'acme/tiny-8b', gpu: 'NVIDIA H100 80GB HBM3' }, { engine: 'vllm', model: 'acme/tiny-8b', gpu: null }])).toBe('vllm · model: acme/tiny-8b · GPU: NVIDIA H100 80GB HBM3');
    const spec = applyBlogPreset(heatmap(), caption);
    const json = JSON.parse(vlJson(spec)) as { title: { text: string; subtitle: string }; data?: unknown; concat?: { data: { values: unknown[] } }[]; config: { title: { fontSize: number }; axis: { labelFontSize: number } } };
    expect(json.title).toEqual({ text: 'Speedup vs baseline: output_throughput', subtitle: caption });
    expect(json.config.title.fontSize).toBe(18);
    expect(json.config.axis.labelFontSize).toBe(13);
    expect(json.concat?.[0]?.data.values.length).toBe(8);
    expect(compileSpec(spec).warnings).toEqual([]);
  });

  it('collects Vega-Lite warnings instead of printing them', () => {
    const bad = { data: { values: [{ a: 1 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'quantitative' }, shape: { field: 'a', type: 'nominal' } } } as TopLevelSpec;
    expect(compileSpec(bad).warnings.length).toBeGreaterThan(0);
  });
});
