import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { SourcePos } from '../../src/core/types.js';
import { isJsonObject, type JsonObject } from '../_shared/json/index.js';

/**
 * AIPerf's `profile_export_aiperf_aggregate.json` (`--num-profile-runs N`, 2026): under `metrics`,
 * one key per metric and statistic (`request_throughput_avg`) with its mean, std, min, max, cv, se
 * and confidence interval over the runs; under `metadata`, `aggregation_type` and the run count.
 * Each run's own `profile_export_aiperf.json` (in `profile_runs/run_NNNN/`) is a run of the table:
 * read as one more, the aggregate would count the same measurements twice (a repeat too many in
 * every median and confidence interval benchlens computes over repeats).
 */
export function isAggregate(obj: JsonObject): boolean {
  const metadata = obj.metadata;
  return isJsonObject(metadata) && typeof metadata.aggregation_type === 'string' && isJsonObject(obj.metrics);
}

/** One info diagnostic saying what the aggregate is and where its runs are. */
export function reportAggregate(obj: JsonObject, sink: DiagnosticSink, at: SourcePos): void {
  const metadata = isJsonObject(obj.metadata) ? obj.metadata : {};
  const type = typeof metadata.aggregation_type === 'string' ? metadata.aggregation_type : 'multi-run';
  const runs = typeof metadata.num_profile_runs === 'number' ? ` of ${metadata.num_profile_runs} profile runs` : '';
  sink.report('table/ignored-block', at, `AIPerf ${type} aggregate${runs} (each run's profile_export_aiperf.json under profile_runs/ is read as a run)`);
}
