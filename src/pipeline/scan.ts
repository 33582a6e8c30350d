/**
 * The ingest pipeline, one pure stage after another:
 *
 *   paths ──discover──▶ files ──read──▶ TextSource ──detect──▶ grammars ──parse──▶ records
 *         ──normalize──▶ runs table (Arquero) ──analyze / charts / report (later stages)
 *
 * Diagnostics from every stage go to an explicit sink and come back sorted with the result.
 */
import { DiagnosticCollector, type Diagnostic, sortDiagnostics } from '../core/diagnostic.js';
import { type DiscoverOptions, type DiscoveredFile, discover } from '../ingest/discover.js';
import { type FileOutcome, type FileReport, type ParsedRecord, processFile } from './process-file.js';
import { type OnFileDone, processAll } from './worker-pool.js';

export interface ScanResult {
  readonly files: readonly FileReport[];
  readonly records: readonly ParsedRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface ScanProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly runs: number;
}

/** Scans in this thread. Same result as `scan`, for library use and tests. */
export function scanPaths(paths: readonly string[], options: DiscoverOptions = {}): ScanResult {
  const sink = new DiagnosticCollector();
  const found = discover(paths, options, sink);
  return assemble(sink.list(), found.files.map((f) => processFile(f.abs, f.rel, f.regular)));
}

/** Scans on worker threads when the folder is large enough to pay for them. */
export async function scan(
  paths: readonly string[],
  options: DiscoverOptions = {},
  onProgress?: (p: ScanProgress) => void,
): Promise<ScanResult> {
  const sink = new DiagnosticCollector();
  const found = discover(paths, options, sink);
  const bytesTotal = found.files.reduce((n, f) => n + f.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  let runs = 0;
  const onDone: OnFileDone = (f: DiscoveredFile, o: FileOutcome) => {
    filesDone++;
    bytesDone += f.size;
    runs += o.report.runs;
    onProgress?.({ filesDone, filesTotal: found.files.length, bytesDone, bytesTotal, runs });
  };
  return assemble(sink.list(), await processAll(found.files, onDone));
}

function assemble(discoverDiagnostics: readonly Diagnostic[], outcomes: readonly FileOutcome[]): ScanResult {
  const files: FileReport[] = [];
  const records: ParsedRecord[] = [];
  const diagnostics: Diagnostic[] = [...discoverDiagnostics];
  for (const o of outcomes) {
    files.push(o.report);
    for (const r of o.records) records.push(r);
    for (const d of o.diagnostics) diagnostics.push(d);
  }
  return { files, records, diagnostics: sortDiagnostics(dedupe(diagnostics)) };
}

function dedupe(items: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return items.filter((d) => {
    const k = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
