import { DiagnosticCollector, formatDiagnostic } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';

/** A folder read as `benchlens table` reads it (one thread): its run rows and the diagnostics of building them. */
export function runsOf(folder: string) {
  const scanned = scanPaths([folder]);
  const sink = new DiagnosticCollector();
  const { rows } = buildRuns(scanned.records.slice(), sink);
  return { rows, diagnostics: sink.list().map(formatDiagnostic) };
}
