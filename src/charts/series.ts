import { text } from './fields.js';
import { LOAD_COLUMNS } from '../analyze/match-keys.js';
import type { ChartOptions, Row } from './types.js';

/** Configuration columns that, when they vary, tell one line (series) from another (the draft model
 * is left out: it follows the method and would make legends unreadable). The workload's lengths are
 * among them: runs of 1,024 and of 4,096 input tokens at one concurrency are not repeats. */
const SERIES_KEYS = ['spec_method', 'num_spec_tokens', 'tp', 'quantization', 'engine', 'model', 'dataset', 'input_len', 'output_len'] as const;

/** Columns in SERIES_KEYS whose value differs between rows. */
export function varyingKeys(rows: readonly Row[], keys: readonly string[] = SERIES_KEYS): string[] {
  return keys.filter((k) => varies(rows, k));
}

/**
 * Whether two of the rows show different values in `column`, unset being a value of its own; stops
 * at the first difference (no list of a campaign's values is made).
 */
function varies(rows: readonly Row[], column: string): boolean {
  const first = rows[0]?.[column];
  const shown = text(first);
  for (let i = 1; i < rows.length; i++) {
    const v = (rows[i] as Row)[column];
    if (v !== first && text(v) !== shown) return true;
  }
  return false;
}

/** Never a line's or a panel's name: the load a chart is drawn along, and the label, which names itself. */
const NOT_KEYS: ReadonlySet<string> = new Set([...LOAD_COLUMNS, 'label']);

/**
 * The columns that tell a chart's configurations apart: the `keys` that vary (varyingKeys), then
 * each other configuration column of the runs table (`options.configColumns`: a server flag, a
 * manifest's setting) that differs between rows alike on those and on `identity` (what places a
 * point in the chart: its load, its method). Without them two configurations the usual keys do
 * not name (prefix caching on and off, two schedulers) were drawn as repeats of one, at their
 * median; a column that changes only with the load or the method (a draft model) adds nothing.
 */
export function configurationKeys(rows: readonly Row[], options: ChartOptions, keys: readonly string[] = SERIES_KEYS, identity: readonly string[] = []): string[] {
  const varying = varyingKeys(rows, keys);
  const others = (options.configColumns ?? []).filter((c) => !keys.includes(c) && !identity.includes(c) && !NOT_KEYS.has(c));
  if (others.length === 0) return varying;
  const groups = new Map<string, Row[]>();
  const placed = [...new Set([...varying, ...identity])];
  for (const r of rows) {
    const key = JSON.stringify(placed.map((c) => text(r[c])));
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const splits = (c: string): boolean => {
    for (const g of groups.values()) if (varies(g, c)) return true;
    return false;
  };
  return [...varying, ...others.filter(splits)];
}

/**
 * A short name for a row's configuration: its label when it has one, else the varying keys
 * (`eagle K=3`), so a legend stays readable without a user-supplied label.
 */
export function seriesName(row: Row, keys: readonly string[], column?: string): string {
  if (column) return text(row[column]) ?? '(none)';
  return text(row.label) ?? keysName(row, keys);
}

/**
 * seriesName for the rows of one chart, which tells apart the configurations a label shares: a
 * label that rows of different varying keys have (`--random-input-len 1024` on the baseline and
 * on every method's runs) is followed by their keys, so one line never mixes two configurations.
 */
export function seriesNamer(rows: readonly Row[], keys: readonly string[], column?: string): (row: Row) => string {
  if (column) return (row) => seriesName(row, keys, column);
  const byLabel = new Map<string, string>();
  const shared = new Set<string>();
  for (const r of rows) {
    const label = text(r.label);
    if (label === null) continue;
    const name = keysName(r, keys);
    const seen = byLabel.get(label);
    if (seen === undefined) byLabel.set(label, name);
    else if (seen !== name) shared.add(label);
  }
  return (row) => {
    const label = text(row.label);
    if (label === null) return keysName(row, keys);
    return shared.has(label) ? `${label} · ${keysName(row, keys)}` : label;
  };
}

function keysName(row: Row, keys: readonly string[]): string {
  const parts = keys.map((k) => {
    const v = text(row[k]);
    if (k === 'spec_method') return v ?? 'none';
    if (k === 'num_spec_tokens') return v === null ? '' : `K=${v}`;
    // a configuration column beyond the usual keys is named only where it tells runs apart: unset is one of its values
    if (v === null && !(SERIES_KEYS as readonly string[]).includes(k)) return `${k}=(none)`;
    return v === null ? '' : `${k}=${v}`;
  });
  const name = parts.filter((p) => p !== '').join(' ');
  return name === '' ? 'all runs' : name;
}

/** Columns whose values name themselves in a panel title; the others are written `tp=4`. */
const SELF_NAMING = new Set(['dataset', 'model']);

/** Panel name for faceting (by dataset, model, tp, …): only the parts that vary, joined with ` · `. */
export function panelName(row: Row, keys: readonly string[]): string {
  const parts = keys.map((k) => {
    const v = text(row[k]) ?? '(unknown)';
    return SELF_NAMING.has(k) ? v : `${k}=${v}`;
  });
  return parts.length === 0 ? '' : parts.join(' · ');
}
