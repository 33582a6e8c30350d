import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GRAMMARS } from '../../grammars/index.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { seriesEntries } from '../../src/core/timeline-series.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { skimJsonBytes } from '../../src/ingest/json-skim.js';
import { claimingGrammarsOf } from '../../src/pipeline/claims.js';
import { parseSource, type ParsedRecord, processFile, skimPathsOf } from '../../src/pipeline/process-file.js';
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

const rel = asRelPath('fuzz.txt');

function parse(bytes: Buffer) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(bytes, rel, sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] as ParsedRecord[] };
  return { records: parsed.records, diagnostics: sink.list() };
}

/** A temporary folder for the inputs read from a file (gzip), removed when the process exits. */
let folder: string | null = null;

/**
 * Removes the temporary folder now: a test worker is ended without its process's `exit`, and left
 * one in the system's temporary folder per test run.
 */
export function removeFuzzFolder(): void {
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
  folder = null;
}

/** The input read from a file, as the pipeline reads one (a gzip file is decompressed there). */
function parseFile(bytes: Buffer) {
  if (folder === null) {
    folder = mkdtempSync(path.join(tmpdir(), 'benchlens-fuzz-'));
    process.on('exit', removeFuzzFolder);
  }
  const file = path.join(folder, 'fuzz.txt.gz');
  writeFileSync(file, bytes);
  const { records, diagnostics } = processFile(file, rel);
  return { records: [...records], diagnostics: [...diagnostics] };
}

/**
 * The input read as a large JSON file is, without the values its grammars never read (see
 * src/ingest/json-skim.ts); null when it would be read whole.
 */
function parseSkimmed(bytes: Buffer): ReturnType<typeof parse> | null {
  const source = fromBytes(bytes, rel, new DiagnosticCollector());
  const claims = source ? claimingGrammarsOf(source) : [];
  const paths = skimPathsOf(claims);
  const kept = paths ? skimJsonBytes([bytes], paths) : null;
  if (!kept) return null;
  const sink = new DiagnosticCollector();
  const skimmed = fromBytes(kept, rel, sink);
  return { records: skimmed ? parseSource(skimmed, sink, claims).records : [], diagnostics: sink.list() };
}

/**
 * Runs one mutated input through every grammar and checks the fuzz properties: no exception, within
 * the time bound, and no run silently changed: after a structural mutation or a truncation, every
 * run found either keeps the values of a run of the original file (a cut run may have fewer values,
 * never different ones), is flagged incomplete, or the file carries a warning; after a server's line
 * tee'd in (Mutation.teed), a console's runs also keep every value unless a warning says otherwise;
 * and, flagged or not, no value read from a line the input is cut inside is one the cut shortened. Result JSON is
 * checked twice: read whole, and skimmed as a large file is; a gzip file is read from a file.
 */
export function checkCase(original: Buffer, m: Mutation, timeBoundMs: number): CaseResult {
  const t0 = performance.now();
  let result: ReturnType<typeof parse>;
  let base: ReturnType<typeof parse>;
  let skimmed: ReturnType<typeof parse> | null;
  try {
    base = parse(original);
    result = m.gzip ? parseFile(m.bytes) : parse(m.bytes);
    skimmed = m.gzip ? null : parseSkimmed(m.bytes);
  } catch (e) {
    return { ok: false, problem: `threw: ${e instanceof Error ? e.stack : String(e)}`, ms: performance.now() - t0 };
  }
  const ms = performance.now() - t0;
  if (ms > timeBoundMs) return { ok: false, problem: `took ${ms.toFixed(0)} ms (bound ${timeBoundMs})`, ms };
  if (m.kind === 'bytes') return { ok: true, problem: null, ms };
  // appending another fixture may add that fixture's own runs: those are not changed runs
  if (m.name === 'append-other-fixture') return { ok: true, problem: null, ms };
  const whole = silentlyChanged(result, base) ?? (m.teed ? lostToTee(result, base) : null);
  if (whole !== null) return { ok: false, problem: whole, ms };
  const cut = m.kind === 'truncation' && !m.gzip ? cutValueRead(original, m.bytes, result) : null;
  if (cut !== null) return { ok: false, problem: cut, ms };
  const skim = skimmed ? silentlyChanged(skimmed, base) : null;
  return skim === null ? { ok: true, problem: null, ms } : { ok: false, problem: `read skimmed: ${skim}`, ms };
}

/**
 * A value of `result` read from the line the input is cut inside, by a grammar that reads values
 * from line text, that the same run does not have when the input is cut after that line instead
 * (or a server stats point of that line that is not the whole line's):
 * a value the cut shortened (`21.60` read as `21.`), which no diagnostic excuses. Null when the
 * input is not the original cut inside a line.
 */
function cutValueRead(original: Buffer, bytes: Buffer, result: ReturnType<typeof parse>): string | null {
  const at = bytes.length;
  if (at === 0 || at >= original.length || !original.subarray(0, at).equals(bytes)) return null;
  if (original[at - 1] === NEWLINE || original[at] === NEWLINE || original[at] === CR) return null;
  const end = original.indexOf(NEWLINE, at);
  const lineEnded = parse(original.subarray(0, end < 0 ? original.length : end + 1));
  const last = bytes.toString('latin1').split('\n').length;
  // a server stats line's point: that of the line whole, or fewer of its values
  const points = (records: readonly ParsedRecord[]) => records.flatMap((r) => (r.record.kind === 'timeline' ? seriesEntries(r.record.series, rel).filter((e) => e.at.line === last) : []));
  const whole = points(lineEnded.records);
  const point = points(result.records).find((p) => !whole.some((w) => Object.keys(p.fields).every((k) => JSON.stringify(p.fields[k]) === JSON.stringify(w.fields[k]))));
  if (point !== undefined) return `stats point at line ${last}, cut inside, is not the line's whole: ${JSON.stringify(point.fields).slice(0, 200)}`;
  for (const r of result.records) {
    if (r.record.kind !== 'run' || GRAMMARS[r.format].readsLineText !== true) continue;
    const { at: start, fields, lines } = r.record;
    const same = lineEnded.records.flatMap((o) => (o.record.kind === 'run' && o.format === r.format && o.record.at.line === start.line ? [o.record] : []));
    for (const k of Object.keys(lines)) {
      // (a label whose value the cut left out reads as nothing: no value)
      if (lines[k] !== last || fields[k] === null || fields[k] === '') continue;
      const v = JSON.stringify(fields[k]);
      if (!same.some((o) => JSON.stringify(o.fields[k]) === v)) return `run at line ${start.line} read ${k} = ${v} from line ${last}, cut inside`;
    }
  }
  return null;
}

const NEWLINE = 10;
const CR = 13;

/**
 * Formats their tools write to files of their own (CSV, YAML), where no other process writes: a
 * server's line in one is damage, not `tee`.
 */
const FILE_FORMATS: ReadonlySet<string> = new Set(['genai-perf-csv', 'guidellm-csv', 'llmd-benchmark-report', 'inference-perf-config']);

/**
 * The first run of `base` read from a console's output (a grammar reading line text, no file
 * format) that no run of `result` has every value of, with no diagnostic to say so: a server's line
 * tee'd into the output lost its values, or the whole run.
 */
function lostToTee(result: ReturnType<typeof parse>, base: ReturnType<typeof parse>): string | null {
  if (result.diagnostics.some((d) => d.severity !== 'info')) return null;
  for (const o of base.records) {
    if (o.record.kind !== 'run' || FILE_FORMATS.has(o.format) || GRAMMARS[o.format].readsLineText !== true) continue;
    const f = o.record.fields;
    const kept = result.records.some((r) => r.record.kind === 'run' && Object.keys(f).every((k) => JSON.stringify(f[k]) === JSON.stringify((r.record as RunRecord).fields[k])));
    if (!kept) return `run at line ${o.record.at.line} lost values to a server's line tee'd into the output: ${runKey(o).slice(0, 200)}`;
  }
  return null;
}

/** The first run of `result` whose values no run of `base` has, with no diagnostic to say so. */
function silentlyChanged(result: ReturnType<typeof parse>, base: ReturnType<typeof parse>): string | null {
  const known = new Set(base.records.map(runKey));
  const flagged = result.diagnostics.some((d) => d.severity !== 'info');
  for (const r of result.records) {
    if (r.record.kind !== 'run' || known.has(runKey(r)) || !r.record.complete || flagged || valuesIntact(r, base.records)) continue;
    return `run at line ${r.record.at.line} changed silently: ${runKey(r).slice(0, 200)}`;
  }
  return null;
}
