import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandLabel, commandLabeler, describesConfiguration, MAX_COMMAND_LABEL, optionsOf } from '../../src/normalize/command-label.js';

describe('commandLabel', () => {
  const loop = [1, 4, 16].map((c) => `vllm bench serve --model acme/m --base-url http://h:8000 --max-concurrency ${c} --num-prompts ${c * 10} --save-result`);

  it("names every value of a flag that takes a list (--batch 4 8), never the first alone", () => {
    const command = 'python -m sglang.bench_one_batch --model-path m --tp 8 --batch 4 8 --output-len 1 1024';
    expect(commandLabel(command, [command])).toBe('--tp 8 --batch 4 8 --output-len 1 1024');
  });

  it('names no credential, though it is all that differs', () => {
    const a = 'vllm bench serve --model m --api-key sk-one --max-concurrency 4';
    const b = 'vllm bench serve --model m --api-key sk-two --hf-token hf_x --max-concurrency 4';
    expect([commandLabel(a, [a, b]), commandLabel(b, [a, b])]).toEqual([null, null]);
    expect(commandLabel('vllm bench serve --model m --openai-api-key sk-3 --tp 2', ['vllm bench serve --model m --openai-api-key sk-3 --tp 2'])).toBe('--tp 2');
  });

  it('keeps only the flags that differ between the commands of the file', () => {
    const lengths = [1024, 4096].flatMap((n) => loop.map((c) => `${c} --random-input-len ${n} --seed ${n % 7}`));
    expect(lengths.map((c) => commandLabel(c, lengths))).toEqual([...loop.map(() => '--random-input-len 1024'), ...loop.map(() => '--random-input-len 4096')]);
  });

  it('gives no label to the commands of a sweep that vary only the load: the runs are one configuration', () => {
    // the load point is in the run's columns (max_concurrency, num_prompts); a label in each
    // would make each run a configuration of its own, a line of one point in every chart
    expect(loop.map((c) => commandLabel(c, loop))).toEqual([null, null, null]);
    const workload = loop.map((c) => `${c} --dataset-name random --random-input-len 1024`);
    expect(workload.map((c) => commandLabel(c, workload))).toEqual([null, null, null]);
    // alone in its file, or beside copies of itself, a command is named by what it sets
    expect(commandLabel(workload[0] ?? '', [workload[0] ?? '', workload[0] ?? ''])).toBe('--dataset-name random --random-input-len 1024');
  });

  it('names the speculative config that sets two launches apart, unquoted', () => {
    const a = `vllm serve acme/m --port 8000 --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'`;
    const b = 'vllm serve acme/m --port 8000';
    expect(commandLabel(a, [a, b])).toBe('--speculative-config {"method": "ngram", "num_speculative_tokens": 4}');
    expect(commandLabel('python -m sglang.launch_server --speculative-algorithm=EAGLE3 --tp 2', [])).toBe('--speculative-algorithm EAGLE3 --tp 2');
  });

  it('drops location and output flags when nothing differs, and caps the length', () => {
    const one = `${loop[0] ?? ''} --tp 2`;
    expect(commandLabel(one, [one])).toBe('--tp 2');
    const long = `vllm bench serve ${Array.from({ length: 12 }, (_, i) => `--flag-${i} ${i}`).join(' ')}`;
    const label = commandLabel(long, []);
    expect(label).toBe('--flag-0 0 --flag-1 1 --flag-2 2 --flag-3 3 --flag-4 4 --flag-5 5 --flag-6 6 ...');
    expect(label?.length).toBeLessThanOrEqual(MAX_COMMAND_LABEL + 4);
    expect(commandLabel('./run-bench.sh', [])).toBe('./run-bench.sh');
  });

  it('labels as comparing the command with every sibling would, however many there are', () => {
    // the definition, one sibling at a time: an option differs when some other command does not give it so
    const reference = (command: string, siblings: readonly string[]): string[] => {
      const options = optionsOf(command).filter((o) => describesConfiguration(o.key));
      const others = siblings.filter((s) => s !== command).map((s) => new Map(optionsOf(s).map((o) => [o.key, o.text])));
      return options.filter((o) => others.some((m) => m.get(o.key) !== o.text)).map((o) => o.text);
    };
    const flag = fc.constantFrom('--max-concurrency', '--max_concurrency', '--num-prompts', '-tp', '--request-rate', '--x');
    const value = fc.constantFrom('1', '4', '16', "'4'", '"a b"', 'inf');
    const option = fc.oneof(fc.tuple(flag, value).map(([f, v]) => `${f} ${v}`), fc.tuple(flag, value).map(([f, v]) => `${f}=${v}`), flag);
    const command = fc.array(option, { minLength: 1, maxLength: 4 }).map((o) => `vllm bench serve ${o.join(' ')}`);
    fc.assert(
      fc.property(command, fc.array(command, { maxLength: 6 }), fc.nat(3), (c, others, copies) => {
        const siblings = [...others, ...Array.from({ length: copies }, () => c)];
        const label = commandLabeler(siblings)(c);
        const differing = reference(c, siblings);
        // the label lists the differing options when there are any (cut at the length cap)
        if (differing.length > 0 && differing.join(' ').length <= MAX_COMMAND_LABEL) expect(label).toBe(differing.join(' '));
      }),
      { numRuns: 500 },
    );
  });
});
