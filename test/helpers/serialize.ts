import type { Diagnostic } from '../../src/core/diagnostic.js';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';

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

export function recordsJsonl(records: readonly ParsedRecord[]): string {
  return records.map((r) => `${stableJson({ format: r.format, ...r.record })}\n`).join('');
}

export function diagnosticsText(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('');
}
