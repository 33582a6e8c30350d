import { DiagnosticCollector, type DiagnosticSink } from '../core/diagnostic.js';
import type { Grammar, TextSource } from '../core/grammar.js';
import type { BenchRecord } from '../core/records.js';
import { seriesEntries } from '../core/timeline-series.js';
import type { RelPath } from '../core/types.js';

/**
 * Where the text after a line's last space, comma, `|` or `;` starts: what a cut may have left of
 * a value. Scanned from the end (a regular expression anchored at the end tries every start: a
 * line of megabytes without a delimiter would take hours).
 */
function lastTokenStart(text: string): number {
  let i = text.length;
  // a comma after a digit may be a thousands separator (`3,390.90` cut as `3,`): the token's
  if (i >= 2 && text.charCodeAt(i - 1) === COMMA && isDigit(text.charCodeAt(i - 2))) i--;
  while (i > 0 && !isDelimiter(text.charCodeAt(i - 1))) i--;
  return i;
}

const COMMA = 0x2c;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isDelimiter(code: number): boolean {
  // ASCII white space (what tools pad with), and the separators of CSV rows, tables and lists
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0b || code === 0x0c || code === COMMA || code === 0x7c /* | */ || code === 0x3b /* ; */;
}

/**
 * The line a file ends inside, when a value read from its text may be cut short there: a file
 * killed while written (a client's stdout goes to a file 8 KiB at a time, so it stops anywhere), a
 * copy cut short. Null when the text ends with a line break (`unterminated` false), or when its
 * last line ends with a space or delimiter (the value before it ended there; not a comma after a
 * digit, which may be a thousands separator), with a closing bracket (a JSON document or list
 * that closes there is whole) or with the quote that closes a quoted string (a CSV cell, a YAML
 * or JSON string: the line's quotes pair up).
 */
export function cutLineOf(unterminated: boolean | undefined, lineNo: number, text: string | undefined): number | null {
  if (unterminated !== true || text === undefined) return null;
  const start = lastTokenStart(text);
  const end = text.charAt(text.length - 1);
  if (start === text.length || end === '}' || end === ']' || (end === '"' && closesQuote(text))) return null;
  return lineNo;
}

/** Does the line's last `"` close a string (an even count: CSV doubles a quote inside a cell, JSON escapes it)? */
function closesQuote(text: string): boolean {
  let quotes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) quotes++;
  }
  return quotes % 2 === 0;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The last token of a line (lastTokenStart): what a cut may have left of a value, or of the unit after one. */
export function lastTokenOf(text: string): string {
  return text.slice(lastTokenStart(text));
}

/** The source without the last token of its last line (lastTokenStart): what is left when the cut value is not there. */
export function withoutCutToken(source: TextSource): TextSource {
  const lines = [...source.lines];
  const last = lines.length - 1;
  const text = lines[last] ?? '';
  lines[last] = text.slice(0, lastTokenStart(text));
  return { path: source.path, lines };
}

/**
 * Does a line grammar read something from the line the file ends inside (see cutLineOf) that
 * depends on its last token? A line grammar's line is read on its own (a stats line is one point of
 * a series): it is read by a parser of its own with and without the token. Such a line is not
 * passed on: a stats line's point would hold the value the cut shortened.
 */
export function lineReadsCutToken(g: Grammar, file: RelPath, text: string, lineNo: number): boolean {
  const parser = g.lines;
  if (!parser) return false;
  const read = (line: string): string => {
    const p = parser.call(g, file, new DiagnosticCollector());
    p.line(line, lineNo);
    // a series by its entries (its columns are typed arrays, which JSON does not show)
    return JSON.stringify(p.finish().map((r) => (r.kind === 'timeline' ? seriesEntries(r.series, file) : r)));
  };
  return read(text) !== read(text.slice(0, lastTokenStart(text)));
}

/** What read/cut-line says a line grammar left out. */
export const CUT_LINE_VALUES = "this line's values";

/** A way to read the file again without its cut token (withoutCutToken), records numbered as the file's lines. */
export interface CutLine {
  readonly line: number;
  /** The line's last token (lastTokenOf). */
  readonly token: string;
  readonly reread: () => readonly BenchRecord[];
}

/** Does a run or configuration hold a value read from this line? */
function holdsLine(record: BenchRecord, line: number): boolean {
  if (record.kind !== 'run' && record.kind !== 'config') return false;
  for (const k in record.lines) if (record.lines[k] === line) return true;
  return false;
}

/**
 * The records without the values that depend on the last token of the line the file ends inside
 * (see cutLineOf): `12.34` written as `12.` would be read as 12. A value read from that line is
 * kept when the grammar reads the same value without the token (the fields before it on a CSV
 * row, a `key: value,` pair that ended), or when it is a finite number and the token has no digit
 * (a unit after the value, `0.62 seconds`, `394.82 token/s`: the number ended at the space before
 * it); dropped otherwise, in one warning. A run that loses values is partial; a record with no
 * value left is dropped.
 */
export function withoutCutValues(records: readonly BenchRecord[], cut: CutLine, file: RelPath, sink: DiagnosticSink): readonly BenchRecord[] {
  if (!records.some((r) => holdsLine(r, cut.line))) return records;
  const unitToken = !/[0-9]/.test(cut.token);
  const without = byPlace(cut.reread());
  const seen = new Map<string, number>();
  const dropped = new Set<string>();
  const out: BenchRecord[] = [];
  for (const record of records) {
    if (!holdsLine(record, cut.line) || (record.kind !== 'run' && record.kind !== 'config')) {
      out.push(record);
      continue;
    }
    const place = placeOf(record);
    const nth = seen.get(place) ?? 0;
    seen.set(place, nth + 1);
    const other = without.get(place)?.[nth];
    const same = (k: string): boolean => other !== undefined && (other.kind === 'run' || other.kind === 'config') && JSON.stringify(other.fields[k]) === JSON.stringify(record.fields[k]);
    const beforeUnit = (k: string): boolean => unitToken && Number.isFinite(record.fields[k]);
    const cutKeys = Object.keys(record.lines).filter((k) => record.lines[k] === cut.line && !same(k) && !beforeUnit(k));
    if (cutKeys.length === 0) {
      out.push(record);
      continue;
    }
    for (const k of cutKeys) dropped.add(k);
    const fields = { ...record.fields };
    const lines = { ...record.lines };
    for (const k of cutKeys) {
      delete fields[k];
      delete lines[k];
    }
    if (Object.keys(fields).length === 0) continue;
    out.push(record.kind === 'run' ? { ...record, fields, lines, complete: false } : { ...record, fields, lines });
  }
  if (dropped.size > 0) sink.report('read/cut-line', { file, line: cut.line, column: 1 }, [...dropped].sort().join(', '));
  return out;
}

/** Where a record starts, and its kind: what matches a record of the two reads. */
function placeOf(record: BenchRecord): string {
  return `${record.kind} ${record.at.line} ${record.at.column}`;
}

function byPlace(records: readonly BenchRecord[]): Map<string, BenchRecord[]> {
  const map = new Map<string, BenchRecord[]>();
  for (const r of records) {
    const place = placeOf(r);
    const list = map.get(place);
    if (list) list.push(r);
    else map.set(place, [r]);
  }
  return map;
}
