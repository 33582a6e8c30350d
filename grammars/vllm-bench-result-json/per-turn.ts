import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldWriter } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';

/**
 * The Rust `vllm-bench --multi-turn` (vllm-project/vllm `rust/src/bench`, 2026) measures each turn
 * of its conversations apart: the console prints a `Turn N (k samples)` section per turn after the
 * overall one, the result JSON a `per_turn_metrics` array. The run's row is the overall values;
 * these are kept beside them, each as a list over the turns, turn 1 first (`per_turn_mean_ttft_ms`:
 * how the time to first token grows as a conversation's context does, or shrinks with prefix
 * caching). Both readers give the same columns, so a printed run and its saved result agree.
 */
export const PER_TURN_COLUMNS = [
  'completed', 'failed', 'total_input_tokens', 'total_output_tokens', 'output_throughput', 'mean_ttft_ms', 'mean_tpot_ms', 'mean_e2el_ms',
] as const;

/** One turn's values by canonical column (`mean_ttft_ms`, `completed`, …). */
export type TurnValues = ReadonlyMap<string, number>;

/**
 * Sets `per_turn_<column>` for each kept column every turn has; one info counts the values that
 * are not columns (the other percentiles and throughputs, a column some turn lacks).
 */
export function addPerTurn(builder: FieldWriter, turns: readonly TurnValues[], line: number, at: SourcePos, sink: DiagnosticSink): void {
  if (turns.length === 0) return;
  let kept = 0;
  for (const column of PER_TURN_COLUMNS) {
    const values = turns.map((t) => t.get(column));
    if (!values.every((v): v is number => typeof v === 'number')) continue;
    builder.set(`per_turn_${column}`, values, line);
    kept += values.length;
  }
  let all = 0;
  for (const t of turns) all += t.size;
  if (all > kept) sink.report('parse/per-turn-values', at, turns.length, all - kept);
}
