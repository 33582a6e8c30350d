import type { DiagnosticSink } from '../core/diagnostic.js';
import type { DiagnosticCode, MessageArgs } from '../core/messages.js';
import type { FormatId } from '../core/format-ids.js';
import type { Grammar } from '../core/grammar.js';
import { type BenchRecord, compactFieldMap } from '../core/records.js';
import type { RelPath, SourcePos } from '../core/types.js';
import { type CutLine, withoutCutValues } from './cut-line.js';

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

/**
 * Runs a grammar's work into `into`: a grammar that throws costs its records for this file, said at
 * line 1, never the batch. The work reports to the sink it is given: a run read from a JSON
 * document the file ends inside (`json/cut`, said where its partial part starts) is partial. In a
 * file that ends inside a line (`cut`, see cutLineOf), the records of a grammar that reads values
 * from line text (Grammar.readsLineText) lose the values the cut may have shortened.
 */
export function guarded(g: Grammar, rel: RelPath, sink: DiagnosticSink, into: Parsed, work: (sink: DiagnosticSink) => readonly BenchRecord[], cut: CutLine | null = null): void {
  const cutFrom: number[] = [];
  const watched: DiagnosticSink = {
    report<C extends DiagnosticCode>(code: C, at: SourcePos, ...args: MessageArgs<C>): void {
      if (code === 'json/cut') cutFrom.push(at.line);
      sink.report(code, at, ...args);
    },
  };
  try {
    const records = work(watched);
    // (a JSON document the file ends inside holds its last line: json/cut has kept its whole values)
    const whole = cut !== null && g.readsLineText === true && cutFrom.length === 0 ? withoutCutValues(records, cut, rel, sink) : records;
    for (const record of whole) into.records.push({ format: g.id, record: compacted(partialWhenCut(record, cutFrom)) });
  } catch (e) {
    sink.report('parse/grammar-crash', { file: rel, line: 1, column: 1 }, g.id, e instanceof Error ? e.message : String(e));
  }
}

/** A run from a document the file ends inside (the last one: every run from where its partial part starts) lacks what came after the cut. */
function partialWhenCut(record: BenchRecord, cutFrom: readonly number[]): BenchRecord {
  return record.kind === 'run' && record.complete && cutFrom.some((line) => record.at.line >= line) ? { ...record, complete: false } : record;
}

/** The record with its values in compact objects (see compactFieldMap): records are kept until the runs table is built. */
function compacted(record: BenchRecord): BenchRecord {
  return record.kind === 'run' || record.kind === 'config' ? { ...record, ...compactFieldMap(record) } : record;
}
