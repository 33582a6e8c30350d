import type { FieldMapBuilder } from '../../src/core/records.js';
import type { JsonObject, JsonValue } from '../_shared/json/index.js';

/**
 * The run's token totals, which LLMPerf writes only as means: each mean (its key in `obj`) × the
 * requests it is over (`completed`), as a whole count; `read` is the layout's reader of a number.
 */
export function addTokenTotals(
  builder: FieldMapBuilder,
  obj: JsonObject,
  completed: number,
  means: { readonly input: string; readonly output: string },
  read: (value: JsonValue | undefined) => number | undefined,
  lineOf: (key: string) => number,
): void {
  for (const [column, key] of [
    ['total_input_tokens', means.input],
    ['total_output_tokens', means.output],
  ] as const) {
    const mean = read(obj[key]);
    if (mean !== undefined) builder.set(column, Math.round(mean * completed), lineOf(key));
  }
}
