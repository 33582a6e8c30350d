import { type Diagnostic, sortDiagnostics } from '../core/diagnostic.js';
import type { FileOutcome, FileReport, ParsedRecord } from './process-file.js';

export interface ScanResult {
  readonly files: readonly FileReport[];
  /** Emptied by takeRecords. */
  readonly records: readonly ParsedRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The scan's records, moved out of it: `result` holds none afterwards. A caller that copied them
 * and dropped its `result` variable still kept every record alive until it returned (80,000 runs:
 * some 110 MB, through the whole build of the table): the async function's frame keeps the value
 * an `await` gave in a register the garbage collector counts as live. Moving them out makes a
 * stale reference to `result` cost nothing.
 */
export function takeRecords(result: ScanResult): ParsedRecord[] {
  const owned = result.records as ParsedRecord[];
  const records = owned.slice();
  owned.length = 0;
  return records;
}

export interface ScanProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly runs: number;
}

/** Joins per-file outcomes (in the files' order) into one result with sorted, de-duplicated diagnostics. */
export function assembleScan(discoverDiagnostics: readonly Diagnostic[], outcomes: readonly FileOutcome[]): ScanResult {
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
