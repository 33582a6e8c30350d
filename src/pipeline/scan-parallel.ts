import { DiagnosticCollector } from '../core/diagnostic.js';
import { type DiscoverOptions, type DiscoveredFile, discover } from '../ingest/discover.js';
import type { FileOutcome } from './process-file.js';
import { assembleScan, type ScanProgress, type ScanResult } from './scan-result.js';
import { type OnFileDone, processAll } from './worker-pool.js';

/**
 * Scans on worker threads when the folder is large enough to pay for them. This module does not
 * load the grammars itself (workers do), so a large scan does not pay for them twice.
 */
/** What to read and with how many threads (default: one per core, at most 4). */
export interface ScanOptions extends DiscoverOptions {
  readonly threads?: number;
}

export async function scan(
  paths: readonly string[],
  options: ScanOptions = {},
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
  return assembleScan(sink.list(), await processAll(found.files, onDone, options.threads));
}
