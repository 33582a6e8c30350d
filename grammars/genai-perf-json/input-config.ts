import type { FieldMapBuilder } from '../../src/core/records.js';
import type { JsonValue } from '../_shared/json/index.js';
import { addCommandFlags, shellWords } from '../_shared/perf-metrics/cli-command.js';

/**
 * `input_config` keys → columns. GenAI-Perf (2024) dumps its argparse namespace flat
 * (`synthetic_input_tokens_mean`); GenAI-Perf 2025 configs and AIPerf nest them
 * (`endpoint.model_names`, `loadgen.concurrency`, `input.prompt.output_tokens.mean`). Paths are
 * matched on their tail, so both shapes land in the same columns.
 */
const TAILS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:^|\.)(?:model|model_names|models\.items\.0\.name|model_names\.0|model\.0)$/, 'model'],
  [/(?:^|\.)concurrency$/, 'max_concurrency'],
  [/(?:^|\.)request_rate$/, 'request_rate'],
  [/(?:^|\.)(?:synthetic_input_tokens_mean|input_tokens\.mean|synthetic_tokens\.mean)$/, 'input_len'],
  [/(?:^|\.)(?:output_tokens_mean|output_tokens\.mean)$/, 'output_len'],
  [/(?:^|\.)(?:endpoint_type|endpoint\.type)$/, 'endpoint_type'],
  [/(?:^|\.)streaming$/, 'streaming'],
  [/(?:^|\.)(?:request_count|num_prompts|num_requests)$/, 'num_prompts'],
  [/^backend$/, 'backend'],
];

/** Adds the run configuration found in an `input_config` object; returns its `cli_command`, if any. */
export function addInputConfig(builder: FieldMapBuilder, config: JsonValue, line: number): string | null {
  let command: string | null = null;
  for (const [path, value] of flatten(config, '')) {
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
