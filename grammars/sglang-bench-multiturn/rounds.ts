import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldWriter } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { addPerTurn } from '../vllm-bench-result-json/per-turn.js';
import { BY_KEY, BY_LABEL, snakeLabel } from './metrics.js';
import { printedNumber } from './text.js';

/** One round's values by column (`completed`, `mean_ttft_ms`, `prefix_cache_hit_rate`, `clients`, …). */
export type RoundValues = Map<string, number>;

/** Columns of a round kept here as `per_turn_<column>` lists (addPerTurn keeps `completed` and `mean_ttft_ms`). */
const OWN_COLUMNS: readonly string[] = ['prefix_cache_hit_rate', 'clients'];

/**
 * The rounds' values as `per_turn_<column>` lists, round 0 first (turn 1): each round's request
 * count and mean TTFT (addPerTurn, as vLLM's multi-turn readers give them), its cache hit rate and,
 * printed since 2026, the clients that took part in it. A round no request finished prints 0 for
 * its TTFT and hit rate, measuring nothing: not read, so those lists are left out for the run (the
 * other rounds' TTFTs are counted in addPerTurn's info). Other values (a fork's ITL per round) are counted in that info.
 */
export function addRounds(b: FieldWriter, rounds: readonly RoundValues[], line: number, at: SourcePos, sink: DiagnosticSink): void {
  if (rounds.length === 0) return;
  const measured = rounds.map((r) => (r.get('completed') === 0 ? new Map([...r].filter(([k]) => k === 'completed' || k === 'clients')) : r));
  for (const column of OWN_COLUMNS) {
    const values = measured.map((r) => r.get(column));
    if (values.every((v): v is number => typeof v === 'number')) b.set(`per_turn_${column}`, values, line);
  }
  const rest = measured.map((r) => new Map([...r].filter(([k]) => !OWN_COLUMNS.includes(k))));
  addPerTurn(b, rest, line, at, sink);
}

/**
 * A printed round: `Average TTFT = 0.52s, Cache Hit Rate = 0.000000 (64 requests)` (2025), with
 * `, 64 clients` inside the parentheses (2026); a fork adds `Average ITL = 0.0123s, …` pairs.
 * `No requests completed`: no values. Null when the text is none of these.
 */
export function printedRound(text: string): RoundValues | null {
  const values: RoundValues = new Map();
  if (text === 'No requests completed') return values;
  const tail = /\s*\((\d+) requests(?:, (\d+) clients)?\)$/.exec(text);
  if (!tail) return null;
  values.set('completed', Number(tail[1]));
  if (tail[2] !== undefined) values.set('clients', Number(tail[2]));
  for (const pair of text.slice(0, tail.index).split(/, (?=[A-Z])/)) {
    const m = /^(.+?) = (\S+?)(?:s|,)?(?: .*)?$/.exec(pair.trim());
    if (!m) continue;
    const value = printedNumber(m[2] as string);
    if (typeof value !== 'number') continue;
    const metric = BY_LABEL.get(m[1] as string);
    values.set(metric?.column ?? snakeLabel(m[1] as string), scaleExact(value, metric?.scale ?? 1));
  }
  return values;
}

/** A `--log-file` round object (`{"average_ttft": …, "cache_hit_rate": …, "request_count": …}`). */
export function savedRound(obj: Readonly<Record<string, unknown>>): RoundValues {
  const values: RoundValues = new Map();
  for (const [key, value] of Object.entries(obj)) {
    if (typeof value !== 'number') continue;
    if (key === 'request_count') {
      values.set('completed', value);
      continue;
    }
    const metric = BY_KEY.get(key);
    values.set(metric?.column ?? key, scaleExact(value, metric?.scale ?? 1));
  }
  return values;
}
