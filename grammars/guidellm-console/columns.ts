import { lookupTable } from '../../src/core/cells.js';
import { statName } from '../_shared/perf-metrics/index.js';
import { spannedLabels, type TableSection } from './table.js';

/**
 * Where GuideLLM's console columns land: the same canonical columns guidellm-json gives for the
 * same metrics. A column is named by its three header rows, group / name / units
 * (`Request Latency` / `Sec` / `Mdn`), never by its position: the throughput table's columns
 * changed order and statistics between versions.
 */
export interface ColumnHeader {
  readonly group: string;
  readonly name: string;
  readonly units: string;
}

/** What one column gives a run. */
export type ColumnTarget = { readonly kind: 'strategy' } | { readonly kind: 'number'; readonly column: string; readonly scale: number };

/** Per-request distributions, by `group|name`; the units row names the statistic (`Mdn`, `p95`). */
const DISTRIBUTIONS: Readonly<Record<string, { readonly stem: string; readonly scale: number }>> = lookupTable({
  // request latency is printed in SECONDS
  'request latency|sec': { stem: 'e2el_ms', scale: 1000 },
  'ttft|ms': { stem: 'ttft_ms', scale: 1 },
  // time to the first content (non-reasoning) token, printed after TTFT (2026)
  'ttfot|ms': { stem: 'ttfot_ms', scale: 1 },
  'itl|ms': { stem: 'itl_ms', scale: 1 },
  'tpot|ms': { stem: 'tpot_ms', scale: 1 },
  'input tok|per req': { stem: 'input_len', scale: 1 },
  'output tok|per req': { stem: 'output_len', scale: 1 },
  'requests|concurrency': { stem: 'request_concurrency', scale: 1 },
});

/** Rates, by `group|name`: only their mean is kept, as guidellm-json keeps it. */
const RATES: Readonly<Record<string, string>> = lookupTable({
  'requests|per sec': 'request_throughput',
  'input tokens|per sec': 'input_throughput',
  'output tokens|per sec': 'output_throughput',
  'total tokens|per sec': 'total_token_throughput',
});

/** Single values of the run summary, by `group|name|units`. */
const VALUES: Readonly<Record<string, string>> = lookupTable({
  'timings|dur|sec': 'duration_s',
  'input tokens|comp|tot': 'total_input_tokens',
  'output tokens|comp|tot': 'total_output_tokens',
});

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** `Mdn` → `median`, `Mean` → `mean`, `p95` → `p95`; null for anything else. */
function statOf(units: string): string | null {
  const u = norm(units);
  return statName(u === 'mdn' ? 'median' : u);
}

/** The target of one column; null for a column not read (start/end clock times, warm-up, totals of failed requests, …). */
export function columnTarget(h: ColumnHeader): ColumnTarget | null {
  const key = `${norm(h.group)}|${norm(h.name)}`;
  if (key === 'benchmark|strategy') return { kind: 'strategy' };
  const value = VALUES[`${key}|${norm(h.units)}`];
  if (value) return { kind: 'number', column: value, scale: 1 };
  const stat = statOf(h.units);
  if (stat === null) return null;
  const dist = DISTRIBUTIONS[key];
  if (dist) return { kind: 'number', column: `${stat}_${dist.stem}`, scale: dist.scale };
  const rate = RATES[key];
  return rate && stat === 'mean' ? { kind: 'number', column: rate, scale: 1 } : null;
}

/**
 * The header of each column of a section: its first three header rows are group, name and units
 * (a missing row leaves its part empty; rows past the third are taken as more units).
 */
export function sectionHeaders(section: TableSection): ColumnHeader[] {
  const rows = section.headerRows.map(spannedLabels);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const units = rows.slice(2);
  return Array.from({ length: width }, (_, j) => ({
    group: rows[0]?.[j] ?? '',
    name: rows[1]?.[j] ?? '',
    units: units.map((r) => r[j] ?? '').join(' ').trim(),
  }));
}

/** The tables GuideLLM prints after a run, in the order it prints them. */
export type TableKind = 'summary' | 'modality' | 'tokens' | 'latency' | 'throughput';

/** Known titles, without the `(Completed Requests)` / `(All Requests)` suffix later versions added. */
const TITLES: Readonly<Record<string, TableKind>> = lookupTable({
  'run summary info': 'summary',
  'text metrics statistics': 'modality',
  'image metrics statistics': 'modality',
  'video metrics statistics': 'modality',
  'audio metrics statistics': 'modality',
  // printed after the audio table when some requests called tools (2026)
  'tool call metrics statistics': 'modality',
  'request token statistics': 'tokens',
  'request latency statistics': 'latency',
  'server throughput statistics': 'throughput',
});

/** Columns that tell a table without a known title (a write-up's own heading above it). */
const TELLING_COLUMNS: ReadonlyArray<readonly [string, TableKind]> = [
  ['timings|dur', 'summary'],
  ['input tok|per req', 'tokens'],
  ['ttft|ms', 'latency'],
  ['requests|per sec', 'throughput'],
  ['requests|concurrency', 'throughput'],
];

/** What a table is, by its title, else by its columns; null for a table GuideLLM does not print. */
export function tableKind(title: string | null, headers: readonly ColumnHeader[]): TableKind | null {
  const byTitle = title === null ? undefined : TITLES[norm(title.replace(/\([^)]*\)\s*$/, ''))];
  if (byTitle) return byTitle;
  const keys = new Set(headers.map((h) => `${norm(h.group)}|${norm(h.name)}`));
  const telling = TELLING_COLUMNS.find(([key]) => keys.has(key));
  if (telling) return telling[1];
  return headers.some((h) => /^(?:input|output) /.test(norm(h.group)) && norm(h.name) === 'per request') ? 'modality' : null;
}
