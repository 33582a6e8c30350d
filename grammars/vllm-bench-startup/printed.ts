import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { TypedLine } from '../../src/parse/chevrotain.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber } from '../../src/parse/values.js';
import { labelAndValue, resultLinesOf } from '../_shared/result-lines/index.js';
import { avgColumn, CLIENT, LAST_COLUMNS, metricOf, percentileColumn, type Phase } from './columns.js';
import { startupGrammar } from './tokens.js';

const AVG = /^\s*Avg ([a-z][a-z ]*?) time:/;
const PERCENTILES_OF = /^\s*([A-Z][a-z ]*?) time percentiles:/;
const PERCENT = /^\s*(\d+(?:\.\d+)?)%:/;
const SECONDS = /:\s*(\S+)\s+seconds?\s*$/;

/** A printed result: its title line and the lines below it, up to the next title. */
interface Printed {
  readonly head: TypedLine;
  readonly lines: TypedLine[];
  last: number;
}

/**
 * One run per `STARTUP TIME BENCHMARK RESULTS` title, with the lines below it up to the next
 * title (log lines interleaved are skipped). A statistic's column comes from the section it is in
 * (`COLD STARTUP:` / `WARM STARTUP:`) and, for a percentile, from the header above it
 * (`Compilation time percentiles:`). Values are printed in seconds to two decimals: kept so.
 */
export function printedRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const results: Printed[] = [];
  let strays = 0;
  let firstStray = 0;
  for (const l of resultLinesOf(source, startupGrammar)) {
    if (l.type === 'ResultTitle') {
      results.push({ head: l, lines: [], last: l.line });
      continue;
    }
    const open = results.at(-1);
    if (!open) {
      if (l.type !== 'Rule' && strays++ === 0) firstStray = l.line;
      continue;
    }
    open.lines.push(l);
    open.last = l.line;
  }
  if (strays > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: firstStray, column: 1 }, strays);
  const ctx = documentContext(source.lines);
  let floor = -1;
  return results.map((r) => {
    const run = toRun(r, source, sink, labelAbove(ctx, source.lines, titleStart(source.lines, r.head.line - 1), floor));
    floor = r.last - 1;
    return run;
  });
}

/** The 0-based index where a result starts: its title, or the rule printed above it. */
function titleStart(lines: readonly string[], title: number): number {
  return title > 0 && /^\s*={10,}\s*$/.test(lines[title - 1] ?? '') ? title - 1 : title;
}

function toRun(r: Printed, source: TextSource, sink: DiagnosticSink, label: string | null): RunRecord {
  const b = new FieldMapBuilder();
  const at = (line: number) => ({ file: source.path, line, column: 1 });
  let phase: Phase | null = null;
  let percentilesOf: string | null = null;
  let strays = 0;
  let firstStray = 0;
  const stray = (line: number) => {
    if (strays++ === 0) firstStray = line;
  };
  for (const l of r.lines) {
    if (l.type === 'Rule') continue;
    if (l.type === 'PhaseHeader') {
      phase = l.text.includes('COLD') ? 'cold' : 'warm';
      percentilesOf = null;
      continue;
    }
    if (l.type === 'PercentilesHeader') {
      percentilesOf = metricOf(PERCENTILES_OF.exec(l.text)?.[1] ?? '');
      continue;
    }
    let column: string | null = null;
    if (phase !== null && l.type === 'AvgTime') column = avgColumn(phase, metricOf(AVG.exec(l.text)?.[1] ?? ''));
    else if (phase !== null && percentilesOf !== null && l.type === 'Percentile') column = percentileColumn(PERCENT.exec(l.text)?.[1] ?? '', phase, percentilesOf);
    if (column === null) {
      stray(l.line);
      continue;
    }
    const m = SECONDS.exec(l.text);
    const v = m?.[1] === undefined ? null : readNumber(m[1]);
    if (!v?.ok || v.value === null) {
      const { label: name, value } = labelAndValue(l);
      sink.report('block/bad-value', at(l.line), name, value);
      continue;
    }
    if (b.has(column)) {
      sink.report('block/duplicate-label', at(l.line), labelAndValue(l).label);
      continue;
    }
    b.set(column, v.value, l.line);
  }
  if (strays > 0) sink.report('parse/unrecognized-lines', at(firstStray), strays);
  b.set('client', CLIENT, r.head.line);
  b.set('engine', 'vllm', r.head.line);
  const complete = LAST_COLUMNS.every((c) => b.has(c));
  if (!complete) sink.report('block/truncated', at(r.last), 'no WARM STARTUP 99% percentiles');
  return { kind: 'run', at: at(r.head.line), label, complete, fields: b.fields, lines: b.lines };
}
