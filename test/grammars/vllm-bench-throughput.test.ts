import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/vllm-bench-throughput/index.js';

function runs(text: string): { runs: RunRecord[]; sink: DiagnosticCollector } {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('t.log'), lines: text.split('\n') }, sink);
  return { runs: records.filter((r): r is RunRecord => r.kind === 'run'), sink };
}

const RESULT = ['Throughput: 5.00 requests/s, 3000.00 total tokens/s, 500.00 output tokens/s', 'Total num prompt tokens:  50000', 'Total num output tokens:  10000'];

describe('vllm-bench-throughput backends (vllm/benchmarks/throughput.py --backend vllm|hf|mii|vllm-chat)', () => {
  it.each([
    ['vllm bench throughput --model m --backend hf --hf-max-batch-size 8', null],
    ['python benchmarks/benchmark_throughput.py --backend=mii --model m', null],
    ['vllm bench throughput --backend vllm-chat --model m --dataset-name hf', 'vllm'],
    ['vllm bench throughput --model m', 'vllm'],
  ])('%s → engine %s', (command, engine) => {
    const { runs: [run] } = runs([`$ ${command}`, ...RESULT].join('\n'));
    expect(run?.fields.engine).toBe(engine);
  });

  it('reads the backend of a command continued over backslashed lines, and of the nearest command only', () => {
    const multiLine = ['```bash', 'python benchmark_throughput.py \\', '    --model /models/m \\', '    --backend hf \\', '    --num-prompts 25', '```', ...RESULT].join('\n');
    expect(runs(multiLine).runs[0]?.fields.engine).toBeNull();
    const nearest = ['$ vllm bench throughput --backend hf --model m', 'oops, that was the HF one; again with vLLM:', '$ vllm bench throughput --model m', ...RESULT].join('\n');
    expect(runs(nearest).runs[0]?.fields.engine).toBe('vllm');
  });

  it('takes the backend of the command since the previous result only', () => {
    const { runs: found } = runs(['$ vllm bench throughput --backend hf --model m', ...RESULT, '$ vllm bench throughput --model m', ...RESULT].join('\n'));
    expect(found.map((r) => r.fields.engine)).toEqual([null, 'vllm']);
  });

  it('warns when the tool says image tokens were not counted, keeping the values', () => {
    const { runs: [run], sink } = runs(['WARNING: Multi-modal request with hf backend detected. The following metrics are not accurate because image tokens are not counted.', ...RESULT].join('\n'));
    expect(run?.fields.total_token_throughput).toBe(3000);
    expect(sink.list().map((d) => [d.code, d.line])).toEqual([['block/inaccurate-values', 1]]);
  });
});
