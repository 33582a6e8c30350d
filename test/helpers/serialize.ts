import type { Diagnostic } from '../../src/core/diagnostic.js';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';
import { seriesEntries } from '../../src/core/timeline-series.js';

/** Stable JSON: sorted keys, non-finite numbers spelled out, so goldens diff cleanly. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/**
 * One JSON line per record; a timeline series as one line per stats line, in line order among its
 * grammar's other records (how the goldens were written before series, so they show every value).
 */
export function recordsJsonl(records: readonly ParsedRecord[]): string {
  const out: { format: string; line: number; json: string }[] = [];
  let group: typeof out = [];
  const flush = (): void => {
    out.push(...group.sort((a, b) => a.line - b.line));
    group = [];
  };
  for (const r of records) {
    if (group.length > 0 && group[0]?.format !== r.format) flush();
    if (r.record.kind === 'timeline') {
      for (const e of seriesEntries(r.record.series, r.record.at.file)) group.push({ format: r.format, line: e.at.line, json: stableJson({ format: r.format, kind: 'timeline', ...e }) });
    } else group.push({ format: r.format, line: r.record.at.line, json: stableJson({ format: r.format, ...r.record }) });
  }
  flush();
  return out.map((o) => `${o.json}\n`).join('');
}

export function diagnosticsText(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('');
}
