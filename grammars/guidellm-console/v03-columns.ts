import { lookupTable } from '../../src/core/cells.js';
import { statName } from '../_shared/perf-metrics/index.js';
import type { BarColumnHeader } from './v03-table.js';

/**
 * Where the columns of GuideLLM 0.2 / 0.3's two tables land (`GenerativeBenchmarksConsole`,
 * `print_benchmarks_info` / `print_benchmarks_stats`): the canonical columns guidellm-json gives
 * for the same metrics of the same benchmark. A column is named by its section and its own name
 * (`TTFT (ms)` / `median`), never by its position.
 */

/** The two tables, in the order GuideLLM prints them. */
export type BarTableKind = 'info' | 'stats';

/** What one column gives a run. */
export type BarTarget = { readonly kind: 'label' } | { readonly kind: 'number'; readonly column: string; readonly scale: number };

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** `Req Latency (ms)` → `req latency`: the unit in a section name is not what tells its column (see DISTRIBUTIONS). */
const sectionName = (section: string): string => norm(section.replace(/\([^)]*\)\s*$/, ''));

/** Single values, by `section|name`. */
const VALUES: Readonly<Record<string, string>> = lookupTable({
  'metadata|duration (s)': 'duration_s',
  // the successful, incomplete and errored requests, as guidellm-json reads `request_totals`
  'requests made|comp': 'completed',
  'requests made|inc': 'incomplete',
  'requests made|err': 'failed',
  // the successful requests' mean tokens and their sum (`total_sum`: the tokens dedupe-runs compares)
  'prompt tok/req|comp': 'mean_input_len',
  'output tok/req|comp': 'mean_output_len',
  'prompt tok total|comp': 'total_input_tokens',
  'output tok total|comp': 'total_output_tokens',
  // means of the successful requests
  'request stats|per second': 'request_throughput',
  'request stats|concurrency': 'mean_request_concurrency',
  'out tok/sec|mean': 'output_throughput',
  'tot tok/sec|mean': 'total_token_throughput',
});

/**
 * Per-request distributions, by section; the column's name is the statistic (`mean`, `median`,
 * `p99`). Request latency is printed in SECONDS (`request_latency`, two decimals) under `Req
 * Latency (ms)` in 0.2 and 0.3 (a wrong unit, vllm-project/guidellm#245) and `(sec)` after.
 */
const DISTRIBUTIONS: Readonly<Record<string, { readonly stem: string; readonly scale: number }>> = lookupTable({
  'req latency': { stem: 'e2el_ms', scale: 1000 },
  ttft: { stem: 'ttft_ms', scale: 1 },
  itl: { stem: 'itl_ms', scale: 1 },
  tpot: { stem: 'tpot_ms', scale: 1 },
});

/** The target of one column; null for a column not read (start and end clock times, the incomplete and errored requests' tokens). */
export function barColumnTarget(h: BarColumnHeader): BarTarget | null {
  const name = norm(h.name);
  if (name === 'benchmark') return { kind: 'label' };
  const section = sectionName(h.section);
  const value = VALUES[`${section}|${name}`];
  if (value) return { kind: 'number', column: value, scale: 1 };
  const dist = DISTRIBUTIONS[section];
  const stat = statName(name);
  return dist && stat !== null ? { kind: 'number', column: `${stat}_${dist.stem}`, scale: dist.scale } : null;
}

const TITLES: Readonly<Record<string, BarTableKind>> = lookupTable({ 'benchmarks info': 'info', 'benchmarks stats': 'stats' });

/** Each table's title as GuideLLM prints it: what a diagnostic names a table by when its title is not in the file. */
export const BAR_TABLE_TITLES = { info: 'Benchmarks Info', stats: 'Benchmarks Stats' } as const satisfies Record<BarTableKind, string>;

/**
 * What a table is, by its title, else by its columns (a write-up's own heading above it); null for
 * a table that is neither, or that has no `Benchmark` column to tell its rows apart.
 */
export function barTableKind(title: string | null, headers: readonly BarColumnHeader[]): BarTableKind | null {
  if (!headers.some((h) => barColumnTarget(h)?.kind === 'label')) return null;
  const byTitle = title === null ? undefined : TITLES[norm(title.replace(/:\s*$/, ''))];
  if (byTitle) return byTitle;
  const sections = new Set(headers.map((h) => sectionName(h.section)));
  if (sections.has('requests made')) return 'info';
  return sections.has('request stats') || sections.has('ttft') ? 'stats' : null;
}
