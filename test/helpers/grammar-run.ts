import type { Diagnostic } from '../../src/core/diagnostic.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { Grammar } from '../../src/core/grammar.js';
import type { BenchRecord, RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';

/** Runs one grammar on an in-memory text (LF lines), returning its records and diagnostics. */
export function runGrammar(grammar: Grammar, text: string): { records: BenchRecord[]; diagnostics: Diagnostic[] } {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('t.txt'), lines: text.split('\n') }, sink);
  return { records, diagnostics: sink.list() };
}

/** Fields of the run records only, in order. */
export function runFields(records: readonly BenchRecord[]): Array<Record<string, unknown>> {
  return records.flatMap((r) => (r.kind === 'run' ? [r.fields] : []));
}

/** The run records of one grammar on an in-memory text, and its diagnostics. */
export function grammarRuns(grammar: Grammar, text: string): { runs: RunRecord[]; diagnostics: Diagnostic[] } {
  const { records, diagnostics } = runGrammar(grammar, text);
  return { runs: records.filter((r): r is RunRecord => r.kind === 'run'), diagnostics };
}
