/**
 * Gives every mark that Vega labelled for screen readers (`aria-label`, built from the chart's
 * tooltip fields) an SVG `<title>` child, which browsers show as a native tooltip: inline SVG
 * keeps its tooltips without any script. The label is already attribute-escaped by Vega, which is
 * also valid element text.
 */
export function addSvgTooltips(svg: string): string {
  return svg.replace(/<(path|text|circle|rect|line)\b([^<>]*?\brole="graphics-symbol"[^<>]*?)\/>/g, (whole, tag: string, attrs: string) => {
    const m = /\baria-label="([^"]*)"/.exec(attrs);
    if (!m) return whole;
    return `<${tag}${attrs}><title>${m[1] ?? ''}</title></${tag}>`;
  });
}
