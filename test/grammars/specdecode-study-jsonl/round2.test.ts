import { expect, it } from 'vitest';
import { grammar } from '../../../grammars/specdecode-study-jsonl/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

it('reads a Round-2 line: dataset-name task, file-stem subtask, a goodput number', () => {
  const line = JSON.stringify({ date: '20250116-113423', backend: 'openai-chat', model_id: 'm', tokenizer_id: 'm', task: 'THUCNews', subtask: 'thucnews_0.125k', NUM_SPEC_TOKENS: 4, best_of: 1, num_prompts: 96, request_rate: 'inf', burstiness: 1.0, max_concurrency: 1, duration: 121.5, completed: 96, request_throughput: 0.79, 'request_goodput:': 0.5 });
  const [f] = runFields(runGrammar(grammar, line).records);
  expect([f?.num_spec_tokens, f?.dataset, f?.subtask, f?.request_goodput, f?.max_concurrency]).toEqual([4, 'THUCNews', 'thucnews_0.125k', 0.5, 1]);
});
