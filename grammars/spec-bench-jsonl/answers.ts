/**
 * One Spec-Bench answer line → the numbers a run is summed from, as `evaluation/speed.py` reads
 * them: the first choice's per-turn `new_tokens` and `wall_time`, and its per-step `accept_lengths`.
 */
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { SourcePos } from '../../src/core/types.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../_shared/json/index.js';

export interface Answer {
  readonly line: number;
  readonly questionId: string | undefined;
  readonly category: string | undefined;
  readonly modelId: string | undefined;
  /** Output tokens over the question's turns. */
  readonly tokens: number;
  /** Seconds over the question's turns. */
  readonly seconds: number;
  /** Tokens each verification step added (accepted drafts and the target's own token). */
  readonly acceptLengths: readonly number[];
}

/** Is this JSON value an answer line at all (not some other JSON a folder holds)? */
export function isAnswerLine(value: JsonValue): value is JsonObject {
  return isJsonObject(value) && Object.hasOwn(value, 'question_id') && Object.hasOwn(value, 'choices');
}

/**
 * The answer's numbers, or null (with a warning) when its first choice lacks a per-turn list of
 * numbers: such a line is left out, the others still count.
 */
export function readAnswer(obj: JsonObject, at: SourcePos, sink: DiagnosticSink): Answer | null {
  const choices = obj.choices;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  if (!isJsonObject(choice)) {
    sink.report('table/bad-cell', at, 'choices', shown(choices));
    return null;
  }
  const newTokens = numbers(choice.new_tokens);
  if (newTokens === null) {
    sink.report('table/bad-cell', at, 'new_tokens', shown(choice.new_tokens));
    return null;
  }
  const wallTime = numbers(choice.wall_time);
  if (wallTime === null) {
    sink.report('table/bad-cell', at, 'wall_time', shown(choice.wall_time));
    return null;
  }
  // an older script's answers may lack the list; a list with a non-number in it is not read
  const accept = choice.accept_lengths === undefined ? [] : numbers(choice.accept_lengths);
  if (accept === null) {
    sink.report('table/bad-cell', at, 'accept_lengths', shown(choice.accept_lengths));
    return null;
  }
  return {
    line: at.line,
    questionId: scalarText(obj.question_id),
    category: scalarText(obj.category),
    modelId: scalarText(obj.model_id),
    tokens: sum(newTokens),
    seconds: sum(wallTime),
    acceptLengths: accept,
  };
}

function numbers(v: JsonValue | undefined): number[] | null {
  if (!Array.isArray(v)) return null;
  for (const x of v) if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) return null;
  return v as number[];
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

function scalarText(v: JsonValue | undefined): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** A value as a diagnostic shows it: missing, or its JSON cut to 40 characters. */
function shown(v: JsonValue | undefined): string {
  if (v === undefined) return '(missing)';
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
