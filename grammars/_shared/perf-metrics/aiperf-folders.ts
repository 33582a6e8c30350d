/**
 * AIPerf subfolders whose exports have the main export's shape but are no run of their own
 * (ai-dynamo/aiperf `exporters/timeslice_json_exporter.py`, `timeslice_csv_exporter.py`,
 * `exporters/exporter_manager.py`):
 * - `timeslices/<stem>_<N>.json|csv` (AIPerf 0.2–0.3, `--slice-duration`): one file per time slice
 *   of the run exported in the folder above; read as runs, one run became as many as its slices;
 * - `phases/<phase>/profile_export_aiperf.json|csv` (2026): the run's metrics again, per phase
 *   (`warmup` included), listed in `phase_manifest.json`; the folder's own export is the run.
 * Each is named by its path (its content is that of a run's export), and only when AIPerf wrote it.
 */
const TIME_SLICE = /(?:^|\/)timeslices\/[^/]+_(\d+)\.(?:json|csv)$/;
const PHASE = /(?:^|\/)phases\/([^/]+)\/[^/]+\.(?:json|csv)$/;

/** What the export at `path` is when it is one of those, for a `table/ignored-block` info; else null. */
export function aiperfPartialExport(path: string): string | null {
  const slice = TIME_SLICE.exec(path);
  if (slice) return `AIPerf time slice ${slice[1]} (timeslices/ holds one export per slice of the run in the folder above)`;
  const phase = PHASE.exec(path);
  if (phase) return `AIPerf per-phase export of phase ${JSON.stringify(phase[1])} (the run is the artifact folder's own profile_export_aiperf export)`;
  return null;
}
