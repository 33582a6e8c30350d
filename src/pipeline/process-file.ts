import { GRAMMARS } from '../../grammars/index.js';
import { DiagnosticCollector, type Diagnostic, type DiagnosticSink } from '../core/diagnostic.js';
import type { FormatId } from '../core/format-ids.js';
import type { Grammar, TextSource } from '../core/grammar.js';
import type { BenchRecord } from '../core/records.js';
import type { RelPath } from '../core/types.js';
import { headOf, readSource } from '../ingest/read.js';

/** A record together with the grammar that produced it. */
export interface ParsedRecord {
  readonly format: FormatId;
  readonly record: BenchRecord;
}

export type FileStatus = 'parsed' | 'unrecognized' | 'skipped';

/** What happened to one file: every discovered file gets exactly one of these. */
export interface FileReport {
  readonly path: RelPath;
  readonly status: FileStatus;
  readonly formats: readonly FormatId[];
  readonly runs: number;
  readonly records: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export interface FileOutcome {
  readonly report: FileReport;
  readonly records: readonly ParsedRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

const GRAMMAR_LIST: readonly Grammar[] = Object.values(GRAMMARS);

/**
 * read → detect → parse for one file. Every grammar that claims the file parses it (a write-up
 * may hold blocks of several formats; each grammar takes only its own). A grammar that throws
 * costs that grammar's records for this file, never the batch.
 */
export function processFile(abs: string, rel: RelPath, regular = true): FileOutcome {
  const sink = new DiagnosticCollector();
  const source = regular ? readSource(abs, rel, sink) : null;
  return outcome(rel, source, source ? parseSource(source, sink) : { formats: [], records: [] }, sink);
}

/** detect → parse for a source already in memory. */
export function parseSource(source: TextSource, sink: DiagnosticSink): { formats: FormatId[]; records: ParsedRecord[] } {
  const records: ParsedRecord[] = [];
  const formats: FormatId[] = [];
  const head = headOf(source);
  const claims = GRAMMAR_LIST.map((g) => ({ g, d: safeDetect(g, head) }))
    .filter((c) => c.d.score > 0)
    .sort((a, b) => b.d.score - a.d.score || (a.g.id < b.g.id ? -1 : 1));
  for (const { g } of claims) {
    formats.push(g.id);
    try {
      for (const record of g.parse(source, sink)) records.push({ format: g.id, record });
    } catch (e) {
      sink.report('parse/grammar-crash', { file: source.path, line: 1, column: 1 }, g.id, e instanceof Error ? e.message : String(e));
    }
  }
  if (claims.length === 0) sink.report('detect/unrecognized', { file: source.path, line: 1, column: 1 });
  return { formats, records };
}

/** Wraps a file's parse into its report, counting what was found. */
export function outcome(
  rel: RelPath,
  source: TextSource | null,
  parsed: { formats: FormatId[]; records: ParsedRecord[] },
  sink: DiagnosticCollector,
): FileOutcome {
  const { formats, records } = parsed;
  const diagnostics = sink.list();
  const status: FileStatus = source === null ? 'skipped' : formats.length === 0 ? 'unrecognized' : 'parsed';
  return {
    report: {
      path: rel,
      status,
      formats,
      runs: records.filter((r) => r.record.kind === 'run').length,
      records: records.length,
      errors: diagnostics.filter((d) => d.severity === 'error').length,
      warnings: diagnostics.filter((d) => d.severity === 'warning').length,
      infos: diagnostics.filter((d) => d.severity === 'info').length,
    },
    records,
    diagnostics,
  };
}

function safeDetect(g: Grammar, head: Parameters<Grammar['detect']>[0]): { score: number } {
  try {
    return g.detect(head);
  } catch {
    return { score: 0 };
  }
}
