import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/spec-bench-jsonl/index.js';
import { parseModelId } from '../../../grammars/spec-bench-jsonl/model-id.js';
import { asRelPath } from '../../../src/core/types.js';

describe('spec-bench-jsonl model ids', () => {
  it.each([
    ['vicuna-7b-v1.3-vanilla-float16-temp-0.0', 'vicuna-7b-v1.3', 'none', 'float16', 0],
    ['vicuna-7b-v1.3-sps-68m-float16-temp-0.0', 'vicuna-7b-v1.3', 'draft_model', 'float16', 0],
    ['vicuna-13b-v1.3-eagle2-float16-temperature-1.0', 'vicuna-13b-v1.3', 'eagle2', 'float16', 1],
    ['vicuna-7b-v1.3-lade-level-5-win-7-guess-7-float16', 'vicuna-7b-v1.3', 'lookahead', 'float16', undefined],
    ['vicuna-7b-v1.3-pld-float16', 'vicuna-7b-v1.3', 'ngram', 'float16', undefined],
    ['vicuna-33b-v1.3-recycling', 'vicuna-33b-v1.3', 'recycling', undefined, undefined],
    ['my-model-bfloat16-temp-0.7', 'my-model', undefined, 'bfloat16', 0.7],
  ])('%s', (id, model, method, dtype, temperature) => {
    expect(parseModelId(id)).toEqual({ model, specMethod: method, dtype, temperature });
  });
});

describe('spec-bench-jsonl detection', () => {
  const path = asRelPath('answers.jsonl');
  it('leaves FastChat answers without timing alone', () => {
    const head = '{"question_id": 81, "answer_id": "x", "model_id": "vicuna-7b", "choices": [{"index": 0, "turns": ["a"]}], "tstamp": 1.0}\n';
    expect(grammar.detect({ path, head }).score).toBe(0);
  });
  it('claims an answer line with per-turn timing and accept lengths', () => {
    const head = '{"question_id": 81, "choices": [{"index": 0, "new_tokens": [3], "wall_time": [0.1], "accept_lengths": [2, 1]}]}\n';
    expect(grammar.detect({ path, head }).score).toBeGreaterThan(0.5);
  });
});
