/**
 * The ingest pipeline, one pure stage after another:
 *
 *   paths ──discover──▶ files ──read──▶ TextSource ──detect──▶ grammars ──parse──▶ records
 *         ──normalize──▶ runs table (Arquero) ──analyze / charts / report (later stages)
 *
 * Diagnostics from every stage go to an explicit sink and come back sorted with the result.
 */
import { DiagnosticCollector } from '../core/diagnostic.js';
import { type DiscoverOptions, discover } from '../ingest/discover.js';
import { processFile } from './process-file.js';
import { assembleScan, type ScanResult } from './scan-result.js';

export { scan } from './scan-parallel.js';
export type { ScanProgress, ScanResult } from './scan-result.js';

/** Scans in this thread. Same result as `scan`, for library use and tests. */
export function scanPaths(paths: readonly string[], options: DiscoverOptions = {}): ScanResult {
  const sink = new DiagnosticCollector();
  const found = discover(paths, options, sink);
  return assembleScan(sink.list(), found.files.map((f) => processFile(f.abs, f.rel, f.regular)));
}
