import type { FieldMapBuilder } from '../../src/core/records.js';
import type { JsonValue } from '../_shared/json/index.js';
import { addCommandFlags, shellWords } from '../_shared/perf-metrics/cli-command.js';

/**
 * `input_config` keys → columns. GenAI-Perf (2024) dumps its argparse namespace flat
 * (`synthetic_input_tokens_mean`); GenAI-Perf 2025 configs and AIPerf nest them
 * (`endpoint.model_names`, `loadgen.concurrency`, `input.prompt.output_tokens.mean`); AIPerf 2026
 * (config v2) writes `models.items[].name`, `datasets[].prompts.isl` (a number, `{value}` or
 * `{mean, stddev}`) and a list of `phases`. Paths are matched on their tail, so every shape lands
 * in the same columns.
 */
const TAILS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:^|\.)(?:model|model_names|models\.items\.0\.name|model_names\.0|model\.0)$/, 'model'],
  [/(?:^|\.)concurrency$/, 'max_concurrency'],
  [/(?:^|\.)request_rate$/, 'request_rate'],
  [/(?:^|\.)(?:synthetic_input_tokens_mean|input_tokens\.mean|synthetic_tokens\.mean|prompts\.isl(?:\.value|\.mean)?)$/, 'input_len'],
  [/(?:^|\.)(?:output_tokens_mean|output_tokens\.mean|prompts\.osl(?:\.value|\.mean)?)$/, 'output_len'],
  // AIPerf 2026 (config v2): the load of the `profiling` phase in `phases` (see profilingPhases)
  [/^phases\.\d+\.rate$/, 'request_rate'],
  [/^phases\.\d+\.requests$/, 'num_prompts'],
  [/(?:^|\.)(?:endpoint_type|endpoint\.type)$/, 'endpoint_type'],
  [/(?:^|\.)streaming$/, 'streaming'],
  [/(?:^|\.)(?:request_count|num_prompts|num_requests)$/, 'num_prompts'],
  [/^backend$/, 'backend'],
];

/** Adds the run configuration found in an `input_config` object; returns its `cli_command`, if any. */
export function addInputConfig(builder: FieldMapBuilder, config: JsonValue, line: number): string | null {
  let command: string | null = null;
  const kept = profilingPhases(config);
  for (const [path, value] of flatten(config, '')) {
    const phase = /^phases\.(\d+)\./.exec(path);
    if (phase && !kept.has(Number(phase[1]))) continue;
    if (/(?:^|\.)cli_command$/.test(path) && typeof value === 'string') {
      command = value;
      continue;
    }
    const column = TAILS.find(([re]) => re.test(path))?.[1];
    if (!column || value === null) continue;
    // GenAI-Perf writes -1 for "not set" (`output_tokens_mean: -1`) and 0 for no request count.
    if (typeof value === 'number' && (value < 0 || (value === 0 && column === 'num_prompts'))) continue;
    builder.set(column, value, line);
  }
  if (command !== null) addCommandFlags(builder, shellWords(command), line);
  return command;
}

/**
 * AIPerf 2026 configs (`BenchmarkConfig`, config v2) list their phases in order, each named
 * `warmup` or `profiling` with its own load (`concurrency`, `rate`, `requests`): the warm-up's
 * comes first and is not the measured run's. The indexes of the phases to read: the `profiling`
 * ones (every phase but the warm-up when none is named so).
 */
function profilingPhases(config: JsonValue): Set<number> {
  const phases = config !== null && typeof config === 'object' && !Array.isArray(config) ? config.phases : undefined;
  if (!Array.isArray(phases)) return new Set();
  const names = phases.map((p) => (p !== null && typeof p === 'object' && !Array.isArray(p) ? p.name : undefined));
  const wanted = names.includes('profiling') ? (n: unknown) => n === 'profiling' : (n: unknown) => n !== 'warmup';
  return new Set(names.flatMap((n, i) => (wanted(n) ? [i] : [])));
}

function* flatten(value: JsonValue, path: string): Generator<readonly [string, string | number | boolean | null]> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* flatten(value[i] ?? null, path === '' ? String(i) : `${path}.${i}`);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* flatten(v, path === '' ? k : `${path}.${k}`);
    return;
  }
  yield [path, value];
}
