/**
 * The ingest pipeline, one pure stage after another:
 *
 *   paths ──discover──▶ files ──read──▶ TextSource ──detect──▶ grammars ──parse──▶ records
 *         ──normalize──▶ runs table (Arquero) ──analyze / charts / report (later stages)
 *
 * Diagnostics from every stage go to an explicit sink and come back sorted with the result.
 */
import { DiagnosticCollector, type Diagnostic, sortDiagnostics } from '../core/diagnostic.js';
import { type DiscoverOptions, discover } from '../ingest/discover.js';
import { type FileReport, type ParsedRecord, processFile } from './process-file.js';

export interface ScanResult {
  readonly files: readonly FileReport[];
  readonly records: readonly ParsedRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

export function scanPaths(paths: readonly string[], options: DiscoverOptions = {}): ScanResult {
  const sink = new DiagnosticCollector();
  const found = discover(paths, options, sink);
  const files: FileReport[] = [];
  const records: ParsedRecord[] = [];
  const diagnostics: Diagnostic[] = [...sink.list()];
  for (const f of found.files) {
    const outcome = processFile(f.abs, f.rel, f.regular);
    files.push(outcome.report);
    records.push(...outcome.records);
    for (const d of outcome.diagnostics) diagnostics.push(d);
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
