import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { BenchRecord } from '../../src/core/records.js';
import { isJsonObject, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { isMetadataObject, toConfig } from './metadata.js';
import { isRunObject, toRun } from './run.js';

/** A run JSON: `aggregated_metrics` first, with AggregatedMetrics' own keys right after it. */
const RUN_KEY = /"aggregated_metrics"\s*:\s*\{/;
const RUN_FIELDS = /"(?:iteration_type|mean_output_throughput_tokens_per_s|mean_total_chars_per_hour|requests_per_second)"\s*:/;
/** The metadata: ExperimentMetadata's own keys. */
const META_KEYS = [/"benchmark_version"\s*:/, /"api_backend"\s*:/, /"(?:traffic_scenario|max_time_per_run_s|max_requests_per_run)"\s*:/];
/** `debug_for_run_<scenario>_<iteration>.json`: the dump cli.py writes when a run could not be aggregated. */
const DEBUG_DUMP = /(?:^|\/)debug_for_run_[^/]*\.json$/;

/**
 * sgl-project/genai-bench's experiment folder (README.md): one run per
 * `<scenario>_<task>_<num_concurrency|batch_size>_<n>_time_<s>s.json`, and the experiment's
 * `experiment_metadata.json`, a ConfigRecord (origin `bench-config`, client `genai-bench`) given to
 * the genai-bench runs of its folder and the folders below.
 */
export const grammar: Grammar = {
  id: 'genai-bench-json',
  title: 'genai-bench run metrics and experiment metadata (JSON)',
  // every request's metrics: never read (the run is the aggregate)
  skim: ['individual_request_metrics'],
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    if (RUN_KEY.test(head) && RUN_FIELDS.test(head)) return { score: 0.85, reason: 'JSON with genai-bench aggregated_metrics' };
    if (META_KEYS.every((re) => re.test(head))) return { score: 0.8, reason: 'genai-bench experiment_metadata.json keys' };
    return NOT_MINE;
  },
  parse(source, sink) {
    const out: BenchRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const at = { file: source.path, line: doc.line, column: 1 };
      const obj = doc.value;
      if (isJsonObject(obj) && isRunObject(obj)) {
        if (DEBUG_DUMP.test(source.path)) {
          sink.report('table/ignored-block', at, 'genai-bench debug dump of a run whose metrics could not be aggregated (no result)');
          continue;
        }
        const run = toRun(obj, at, source, sink, doc.cut === true);
        if (run) out.push(run);
      } else if (isJsonObject(obj) && isMetadataObject(obj)) {
        const config = toConfig(obj, at);
        if (config) out.push(config);
      } else {
        sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
      }
    }
    return out;
  },
};
