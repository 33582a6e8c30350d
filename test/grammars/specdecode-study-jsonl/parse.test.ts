import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/specdecode-study-jsonl/index.js';
import { grammar as vllmJson } from '../../../grammars/vllm-bench-result-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const line = (extra: object) => JSON.stringify({ model_id: 'm', completed: 4, request_throughput: 1.5, ...extra });

describe('specdecode-study-jsonl', () => {
  it('is claimed by this grammar only, not by the vLLM result grammar', () => {
    const head = `${line({ NUM_SPEC_TOKENS: -1 })}\n`;
    const path = asRelPath('t.jsonl');
    expect(grammar.detect({ path, head }).score).toBeGreaterThan(0);
    expect(vllmJson.detect({ path, head }).score).toBe(0);
    expect(grammar.detect({ path, head: line({ num_spec_tokens: 2 }) }).score).toBe(0);
    expect(vllmJson.detect({ path, head: line({}) }).score).toBeGreaterThan(0);
  });

  it('turns NUM_SPEC_TOKENS and task into canonical columns', () => {
    const text = [line({ NUM_SPEC_TOKENS: -1, task: 'math_reasoning', 'request_goodput:': null }), line({ NUM_SPEC_TOKENS: 4, task: 'qa', subtask: '' })].join('\n');
    const fields = runFields(runGrammar(grammar, text).records);
    expect(fields.map((f) => [f.spec_method, f.num_spec_tokens, f.dataset, f.task, 'request_goodput' in f, 'subtask' in f, 'NUM_SPEC_TOKENS' in f])).toEqual([
      ['none', undefined, 'math_reasoning', 'math_reasoning', false, false, false],
      [undefined, 4, 'qa', 'qa', false, false, false],
    ]);
    expect(fields[0]?.completed).toBe(4);
  });
});
