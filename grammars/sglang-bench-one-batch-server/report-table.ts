import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { TypedLine } from '../../src/parse/chevrotain.js';
import { percentToFraction, readNumber } from '../../src/parse/values.js';
import { snakeCase } from '../_shared/serving-block/fields.js';
import { type ColumnSpec, type SentinelTally, setBatchSize, setTool, setValue, TABLE_HEADERS } from './columns.js';
import type { ServedBy } from './served-by.js';
import type { ReportTable } from './visitor.js';

/**
 * What the `Input lens: [1024]. Output lens: [16].` line above a table says of all its rows: a
 * length when one was swept, and the `--cache-hit-rate` asked for (` Cache hit rate: 40.0%.`,
 * 2025 →). The table has no output length column (nor, before mid-2025, an input length one).
 */
export interface ReportLens {
  readonly line: number;
  readonly inputLen: number | null;
  readonly outputLen: number | null;
  readonly cacheHitRatePct: number | null;
}

const LENS = /Input len\w*: [[(]([^\])]*)[\])]\.\s*Output len\w*: [[(]([^\])]*)[\])]\.(?:\s*Cache hit rate: ([\d.]+)%)?/;

export function readLens(line: TypedLine): ReportLens | null {
  const m = LENS.exec(line.text);
  if (!m) return null;
  return { line: line.line, inputLen: single(m[1] ?? ''), outputLen: single(m[2] ?? ''), cacheHitRatePct: m[3] === undefined ? null : Number(m[3]) };
}

/** The one value of a printed Python list or tuple (`[16]`, `(16,)`); null for several or none. */
function single(list: string): number | null {
  const values = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return values.length === 1 && /^\d+$/.test(values[0] as string) ? Number(values[0]) : null;
}

/** How the table was printed and what it stands for beyond its rows. */
export interface TableContext {
  readonly source: TextSource;
  readonly sink: DiagnosticSink;
  readonly sentinels: SentinelTally;
  readonly served: ServedBy;
  readonly lens: ReportLens | null;
  readonly label: string | null;
}

/** A header's reading: a known column, read past (null), the batch size, a profile link, or its own name. */
type HeaderReading = { readonly kind: 'spec'; readonly spec: ColumnSpec | null } | { readonly kind: 'batch' | 'profile' } | { readonly kind: 'own'; readonly column: string };

/**
 * The rows of a `--show-report` table, one run each: the hand-written Markdown of 2025 (`| 16 |
 * 0.41 | …`) and `tabulate`'s GitHub table since (padded, numbers in `%g`: `21694.9` for
 * 21694.92). `n/a` cells are missing. A header the tool added later keeps its own name (one
 * `table/unknown-metric` info); a row with fewer cells than the header is a partial run.
 */
export function tableRuns(table: ReportTable, ctx: TableContext): RunRecord[] {
  const { source, sink } = ctx;
  const headers = cells(table.header.text);
  const readings = headers.map(headerReading);
  const own = readings.flatMap((r, i) => (r.kind === 'own' ? [headers[i] as string] : []));
  if (own.length > 0) sink.report('table/unknown-metric', { file: source.path, line: table.header.line, column: 1 }, own.length, own.join(', '));
  return table.rows.map((row) => {
    const values = cells(row.text);
    const complete = values.length >= headers.length;
    if (!complete) sink.report('table/short-row', { file: source.path, line: row.line, column: 1 }, values[0] ?? '', values.length, headers.length);
    const b = new FieldMapBuilder();
    values.slice(0, headers.length).forEach((cell, i) => readCell(b, readings[i] as HeaderReading, headers[i] as string, cell, row.line, ctx));
    addLens(b, ctx.lens, readings);
    setTool(b, ctx.served.engine, row.line);
    if (ctx.served.model) b.set('model', ctx.served.model.name, ctx.served.model.line);
    return { kind: 'run', at: { file: source.path, line: row.line, column: 1 }, label: ctx.label, complete, fields: b.fields, lines: b.lines };
  });
}

/** The cells of a `|` line, trimmed, without the empty ends outside its first and last `|`. */
export function cells(text: string): string[] {
  const parts = text.trim().split('|').map((c) => c.trim());
  if (parts[0] === '') parts.shift();
  // a row cut short has no closing `|`: its last cell is kept
  if (parts.length > 0 && parts.at(-1) === '' && text.trimEnd().endsWith('|')) parts.pop();
  return parts;
}

function headerReading(header: string): HeaderReading {
  const key = header.toLowerCase().replace(/\s+/g, ' ');
  if (key === 'batch size') return { kind: 'batch' };
  if (key === 'profile') return { kind: 'profile' };
  if (Object.hasOwn(TABLE_HEADERS, key)) return { kind: 'spec', spec: TABLE_HEADERS[key] ?? null };
  return { kind: 'own', column: snakeCase(header) };
}

function readCell(b: FieldMapBuilder, reading: HeaderReading, header: string, cell: string, line: number, ctx: TableContext): void {
  if (reading.kind === 'spec' && reading.spec === null) return;
  if (reading.kind === 'profile') {
    // `[Profile](link)`, or `n/a` when the profiling pass gave none
    const link = /^\[[^\]]*\]\((.+)\)$/.exec(cell)?.[1];
    if (link) b.set('profile_link', link, line);
    return;
  }
  const v = readNumber(cell);
  if (reading.kind === 'own') {
    if (v.ok && v.value !== null && v.rest === '') b.set(reading.column, v.value, line);
    else if (!v.ok && cell !== '') b.set(reading.column, cell, line);
    return;
  }
  if (!v.ok) {
    ctx.sink.report('table/bad-cell', { file: ctx.source.path, line, column: 1 }, header, cell);
    return;
  }
  if (v.value === null) return;
  if (reading.kind === 'batch') setBatchSize(b, v.value, line);
  else if (reading.kind === 'spec' && reading.spec && !setValue(b, reading.spec, v.value, line)) ctx.sentinels.add(line);
}

/** The lengths and the cache hit rate asked for, from the line above the table, where they are one for all rows. */
function addLens(b: FieldMapBuilder, lens: ReportLens | null, readings: readonly HeaderReading[]): void {
  if (lens === null) return;
  const hasInputLen = readings.some((r) => r.kind === 'spec' && r.spec?.column === 'input_len');
  if (!hasInputLen && lens.inputLen !== null) b.set('input_len', lens.inputLen, lens.line);
  if (lens.outputLen !== null) b.set('output_len', lens.outputLen, lens.line);
  // the `--cache-hit-rate` flag (schema.md: a flag keeps its name), not the rate measured
  if (lens.cacheHitRatePct !== null) b.set('cache_hit_rate', percentToFraction(lens.cacheHitRatePct), lens.line);
}
