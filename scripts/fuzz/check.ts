import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { parseSource, type ParsedRecord } from '../../src/pipeline/process-file.js';
import type { Mutation } from './mutate.js';

export interface CaseResult {
  readonly ok: boolean;
  readonly problem: string | null;
  readonly ms: number;
}

/** Every value of a run, without positions: what "the run was not changed" compares. */
function runKey(r: ParsedRecord): string {
  if (r.record.kind !== 'run') return '';
  const f = r.record.fields;
  return JSON.stringify(Object.keys(f).sort().map((k) => [k, f[k]]));
}

/** True when every value the run has equals that of some run of the original (fewer values is fine). */
function valuesIntact(r: ParsedRecord, originals: readonly ParsedRecord[]): boolean {
  if (r.record.kind !== 'run') return true;
  const f = r.record.fields;
  return originals.some((o) => {
    if (o.record.kind !== 'run') return false;
    const g = o.record.fields;
    return Object.keys(f).every((k) => JSON.stringify(f[k]) === JSON.stringify(g[k]));
  });
}

function parse(bytes: Buffer) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(bytes, asRelPath('fuzz.txt'), sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] as ParsedRecord[] };
  return { records: parsed.records, diagnostics: sink.list(), accounted: source === null || parsed.formats.length >= 0 };
}

/**
 * Runs one mutated input through every grammar and checks the fuzz properties: no exception, within
 * the time bound, the file accounted for, and no run silently changed: after a structural mutation
 * or a truncation, every run found either keeps the values of a run of the original file (a cut run
 * may have fewer values, never different ones), is flagged incomplete, or the file carries a warning.
 */
export function checkCase(original: Buffer, m: Mutation, timeBoundMs: number): CaseResult {
  const t0 = performance.now();
  let result: ReturnType<typeof parse>;
  let base: ReturnType<typeof parse>;
  try {
    base = parse(original);
    result = parse(m.bytes);
  } catch (e) {
    return { ok: false, problem: `threw: ${e instanceof Error ? e.stack : String(e)}`, ms: performance.now() - t0 };
  }
  const ms = performance.now() - t0;
  if (ms > timeBoundMs) return { ok: false, problem: `took ${ms.toFixed(0)} ms (bound ${timeBoundMs})`, ms };
  if (m.kind === 'bytes') return { ok: true, problem: null, ms };
  const known = new Set(base.records.map(runKey));
  const flagged = result.diagnostics.some((d) => d.severity !== 'info');
  for (const r of result.records) {
    if (r.record.kind !== 'run' || known.has(runKey(r)) || !r.record.complete || flagged || valuesIntact(r, base.records)) continue;
    // appending another fixture may add that fixture's own runs: those are not changed runs
    if (m.name === 'append-other-fixture') continue;
    return { ok: false, problem: `run at line ${r.record.at.line} changed silently: ${runKey(r).slice(0, 200)}`, ms };
  }
  return { ok: true, problem: null, ms };
}
