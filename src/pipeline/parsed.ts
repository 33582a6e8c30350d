import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FormatId } from '../core/format-ids.js';
import type { Grammar } from '../core/grammar.js';
import { type BenchRecord, compactFieldMap } from '../core/records.js';
import type { RelPath } from '../core/types.js';

/** A record together with the grammar that produced it. */
export interface ParsedRecord {
  readonly format: FormatId;
  readonly record: BenchRecord;
}

/** What the grammars that claim a file found in it. */
export interface Parsed {
  formats: FormatId[];
  records: ParsedRecord[];
}

/** Runs a grammar's work into `into`: a grammar that throws costs its records for this file, said at line 1, never the batch. */
export function guarded(g: Grammar, rel: RelPath, sink: DiagnosticSink, into: Parsed, work: () => BenchRecord[]): void {
  try {
    for (const record of work()) into.records.push({ format: g.id, record: compacted(record) });
  } catch (e) {
    sink.report('parse/grammar-crash', { file: rel, line: 1, column: 1 }, g.id, e instanceof Error ? e.message : String(e));
  }
}

/** The record with its values in compact objects (see compactFieldMap): records are kept until the runs table is built. */
function compacted(record: BenchRecord): BenchRecord {
  return record.kind === 'run' || record.kind === 'config' ? { ...record, ...compactFieldMap(record) } : record;
}
