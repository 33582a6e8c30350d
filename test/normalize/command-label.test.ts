import { describe, expect, it } from 'vitest';
import { commandLabel, MAX_COMMAND_LABEL } from '../../src/normalize/command-label.js';

describe('commandLabel', () => {
  const loop = [1, 4, 16].map((c) => `vllm bench serve --model acme/m --base-url http://h:8000 --max-concurrency ${c} --num-prompts ${c * 10} --save-result`);

  it('keeps only the flags that differ between the commands of the file', () => {
    expect(loop.map((c) => commandLabel(c, loop))).toEqual([
      '--max-concurrency 1 --num-prompts 10',
      '--max-concurrency 4 --num-prompts 40',
      '--max-concurrency 16 --num-prompts 160',
    ]);
  });

  it('names the speculative config that sets two launches apart, unquoted', () => {
    const a = `vllm serve acme/m --port 8000 --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'`;
    const b = 'vllm serve acme/m --port 8000';
    expect(commandLabel(a, [a, b])).toBe('--speculative-config {"method": "ngram", "num_speculative_tokens": 4}');
    expect(commandLabel('python -m sglang.launch_server --speculative-algorithm=EAGLE3 --tp 2', [])).toBe('--speculative-algorithm EAGLE3 --tp 2');
  });

  it('drops location and output flags when nothing differs, and caps the length', () => {
    expect(commandLabel(loop[0] ?? '', [loop[0] ?? ''])).toBe('--max-concurrency 1 --num-prompts 10');
    const long = `vllm bench serve ${Array.from({ length: 12 }, (_, i) => `--flag-${i} ${i}`).join(' ')}`;
    const label = commandLabel(long, []);
    expect(label).toBe('--flag-0 0 --flag-1 1 --flag-2 2 --flag-3 3 --flag-4 4 --flag-5 5 --flag-6 6 ...');
    expect(label.length).toBeLessThanOrEqual(MAX_COMMAND_LABEL + 4);
    expect(commandLabel('./run-bench.sh', [])).toBe('./run-bench.sh');
  });
});
