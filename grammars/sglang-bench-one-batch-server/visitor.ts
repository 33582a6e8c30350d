import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { childNodes, childTokens, linesNamed, type TypedLine } from '../../src/parse/chevrotain.js';

/** One case's printed lines: from its `batch size:` line to the line before what ends it. */
export interface ServerCase {
  /** The `batch size: N` line. */
  readonly head: TypedLine;
  /** Printed between the warm-up banners: not a measurement. */
  readonly warmup: boolean;
  /** A warm-up case known by the closing banner below it only (headlessWarmupEnd): said, not silently left out. */
  readonly headlessWarmup?: true;
  /** Its `label: value` lines, in order. */
  readonly values: readonly TypedLine[];
  /** Lines of no known kind written into it (a tee'd server's log). */
  readonly others: readonly TypedLine[];
  /** Its last line. */
  readonly end: number;
}

/** The `--show-report` Markdown table: its header line and its rows (the rule line left out). */
export interface ReportTable {
  readonly header: TypedLine;
  readonly rows: readonly TypedLine[];
  readonly end: number;
}

/** What one piece of the source holds, each list in line order. */
export interface ServerDocument {
  readonly cases: readonly ServerCase[];
  readonly tables: readonly ReportTable[];
  /** Lines in no case and no table (banners excepted): `Input lens:` lines, status lines, the rest. */
  readonly loose: readonly TypedLine[];
}

const LOOSE = new Set(['ReportLens', 'CaseValue', 'KnownLine', 'RunEnd', 'TableRule', 'TableRow', 'OtherLine']);
const CASE_LINES = new Set(['BatchSize', 'CaseValue', 'KnownLine', 'OtherLine']);

export function serverDocument(document: CstNode): ServerDocument {
  const warmups = childNodes(document, 'warmup');
  const tables = childNodes(document, 'table').flatMap(toTable);
  const looseNodes = [...childNodes(document, 'looseLine'), ...warmups.flatMap((w) => childNodes(w, 'warmupLine'))];
  const loose = looseNodes.flatMap((n) => linesNamed(n, LOOSE));
  const end = headlessWarmupEnd(document, warmups);
  // what ended a run above that banner (a report table, a closing line): the warm-up began below it
  const runEnds = [...tables.map((t) => t.end), ...loose.filter((l) => l.type === 'RunEnd').map((l) => l.line)];
  const inHeadlessWarmup = (line: number): boolean => line < end && !runEnds.some((r) => line < r && r < end);
  const cases = [
    ...childNodes(document, 'serverCase')
      .flatMap((c) => toCase(c, false))
      .map((c) => (inHeadlessWarmup(c.head.line) ? { ...c, warmup: true, headlessWarmup: true as const } : c)),
    ...warmups.flatMap((w) => childNodes(w, 'serverCase').flatMap((c) => toCase(c, true))),
  ];
  return {
    cases: cases.sort((a, b) => a.head.line - b.head.line),
    tables: tables.sort((a, b) => a.header.line - b.header.line),
    loose: loose.sort((a, b) => a.line - b.line),
  };
}

/**
 * The line of a closing warm-up banner that is the file's first banner (0 when there is none): a
 * log kept from the middle of its warm-up (`tail -n`), whose cases above it were warm-up cases.
 */
function headlessWarmupEnd(document: CstNode, warmups: readonly CstNode[]): number {
  let first = Number.POSITIVE_INFINITY;
  for (const n of childNodes(document, 'looseLine')) for (const t of childTokens(n, 'WarmupEnd')) first = Math.min(first, t.startLine ?? 0);
  const begins = warmups.flatMap((w) => childTokens(w, 'WarmupBegin').map((t) => t.startLine ?? 0));
  return Number.isFinite(first) && begins.every((b) => b > first) ? first : 0;
}

function toCase(node: CstNode, warmup: boolean): ServerCase[] {
  const lines = linesNamed(node, CASE_LINES);
  const head = lines[0];
  // (a case whose first line the recovering parser made up has no place in the file)
  if (head?.type !== 'BatchSize') return [];
  return [
    {
      head,
      warmup,
      values: lines.filter((l) => l.type === 'CaseValue'),
      others: lines.filter((l) => l.type === 'OtherLine'),
      end: lines.at(-1)?.line ?? head.line,
    },
  ];
}

function toTable(node: CstNode): ReportTable[] {
  const header = childTokens(node, 'TableHeader')[0];
  if (!header) return [];
  const rows = linesNamed(node, new Set(['TableRow']));
  const all = linesNamed(node, new Set(['TableHeader', 'TableRule', 'TableRow']));
  return [{ header: { type: 'TableHeader', text: header.image, line: header.startLine ?? 1 }, rows, end: all.at(-1)?.line ?? header.startLine ?? 1 }];
}
