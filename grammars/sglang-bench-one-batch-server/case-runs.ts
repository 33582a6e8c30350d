import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { readNumber } from '../../src/parse/values.js';
import { CASE_LABELS, type SentinelTally, setBatchSize, setTool, setValue } from './columns.js';
import type { ServedBy } from './served-by.js';
import type { ServerCase } from './visitor.js';

const STEADY_WINDOW = /\bover an? ([\d.]+) s\b/;

/** Where a case is printed and what it stands for beyond its own lines. */
export interface CaseContext {
  readonly source: TextSource;
  readonly sink: DiagnosticSink;
  readonly sentinels: SentinelTally;
  readonly served: ServedBy;
  readonly label: string | null;
}

/**
 * One measured case's lines → a run. A case has no footer: it is cut short (a partial run, one
 * `block/truncated` warning) when a line both layouts always print is missing.
 */
export function caseRun(c: ServerCase, ctx: CaseContext): RunRecord {
  const { source, sink } = ctx;
  const b = new FieldMapBuilder();
  const batch = Number(/\d+/.exec(c.head.text)?.[0]);
  setBatchSize(b, batch, c.head.line);
  const seen = new Set<string>();
  for (const l of c.values) {
    const colon = l.text.indexOf(':');
    const label = l.text.slice(0, colon).trim();
    const spec = CASE_LABELS[label];
    if (!spec) continue;
    seen.add(label);
    const rest = l.text.slice(colon + 1);
    const v = readNumber(rest);
    if (!v.ok) {
      sink.report('block/bad-value', { file: source.path, line: l.line, column: 1 }, label, rest.trim());
      continue;
    }
    if (v.value === null) continue;
    if (!setValue(b, spec, v.value, l.line)) ctx.sentinels.add(l.line);
    const window = label === 'steady-state output throughput' ? STEADY_WINDOW.exec(v.rest)?.[1] : undefined;
    if (window !== undefined) b.set('steady_state_window_s', Number(window), l.line);
  }
  setTool(b, ctx.served.engine, c.head.line);
  if (ctx.served.model) b.set('model', ctx.served.model.name, ctx.served.model.line);
  const missing = missingLine(seen, b.fields.output_len);
  if (missing !== null) sink.report('block/truncated', { file: source.path, line: c.end, column: 1 }, `no ${missing} line`);
  return { kind: 'run', at: { file: source.path, line: c.head.line, column: 1 }, label: ctx.label, complete: missing === null, fields: b.fields, lines: b.lines };
}

/** The lines a whole case prints that this one lacks, quoted; null when none is missing. */
function missingLine(seen: ReadonlySet<string>, outputLen: unknown): string | null {
  // what both layouts always print, in the newest's order; `output throughput` is not printed for a
  // single output token (there is no decode to time)
  const required = ['latency', 'input throughput', ...(outputLen === 1 ? [] : ['output throughput']), 'last generation throughput'];
  const missing = required.filter((label) => !seen.has(label));
  return missing.length === 0 ? null : missing.map((label) => `"${label}"`).join(' or ');
}
