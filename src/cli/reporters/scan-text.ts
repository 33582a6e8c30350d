import { counted } from '../../core/counted.js';
import { displayPath } from '../../core/diagnostic.js';
import type { FileReport } from '../../pipeline/process-file.js';

/**
 * One aligned line per file: path, format(s) or status, runs (for a file holding none, such as a
 * server log or a manifest, the runs linked to it), diagnostics (errors/warnings/info). A path
 * with a newline or another control character in its name is quoted, as in diagnostics: written
 * as it is, it would break its line in two.
 */
export function formatScanText(files: readonly (FileReport & { readonly linked_runs?: number })[]): string {
  const rows = files.map((f) => [
    displayPath(f.path),
    f.status === 'parsed' ? f.formats.join('+') : f.status,
    f.runs === 0 && (f.linked_runs ?? 0) > 0 ? `0 runs, linked to ${f.linked_runs}` : counted(f.runs, 'run'),
    `${f.errors}E ${f.warnings}W ${f.infos}I`,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c)).join('  ').trimEnd()).join('\n') + (rows.length ? '\n' : '');
}
