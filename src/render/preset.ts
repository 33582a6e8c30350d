import type { TopLevelSpec } from 'vega-lite';
import { distinct, text } from '../charts/fields.js';
import type { Row } from '../charts/types.js';

/** Font sizes for a figure shown at column width in a blog post (larger than the report's). */
const BLOG_CONFIG = {
  axis: { labelFontSize: 13, titleFontSize: 14 },
  legend: { labelFontSize: 13, titleFontSize: 13 },
  header: { labelFontSize: 13, titleFontSize: 13 },
  title: { fontSize: 18, subtitleFontSize: 12 },
} as const;

/** A caption naming engines with versions, models and GPUs where known, e.g. `vllm 0.11.0 · model: org/m · GPU: H100`. */
export function captionFor(rows: readonly Row[]): string {
  const engines = [...new Set(rows.map((r) => [text(r.engine), text(r.engine_version)].filter((p) => p !== null).join(' ')).filter((e) => e !== ''))].sort();
  const models = distinct(rows, 'model');
  const gpus = distinct(rows, 'gpu');
  const parts: string[] = [];
  if (engines.length > 0) parts.push(engines.join(', '));
  if (models.length > 0) parts.push(`${models.length === 1 ? 'model' : 'models'}: ${models.join(', ')}`);
  if (gpus.length > 0) parts.push(`${gpus.length === 1 ? 'GPU' : 'GPUs'}: ${gpus.join(', ')}`);
  return parts.join(' · ');
}

/** Applies the blog preset: bigger fonts, light theme, a caption line under the title. */
export function applyBlogPreset(spec: TopLevelSpec, caption: string): TopLevelSpec {
  const s = spec as TopLevelSpec & { config?: Record<string, unknown>; title?: unknown };
  const config: Record<string, unknown> = { ...(s.config ?? {}) };
  for (const [k, v] of Object.entries(BLOG_CONFIG)) config[k] = { ...((config[k] as Record<string, unknown> | undefined) ?? {}), ...v };
  const title = typeof s.title === 'object' && s.title !== null && 'text' in s.title ? (s.title as { text: unknown }).text : s.title;
  const titled = caption === '' ? { text: title } : { text: title, subtitle: caption };
  return { ...s, title: titled, config } as TopLevelSpec;
}
