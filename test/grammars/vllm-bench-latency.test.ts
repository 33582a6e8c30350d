import { describe, expect, it } from 'vitest';
import { grammar } from '../../grammars/vllm-bench-latency/index.js';
import { runGrammar } from '../helpers/grammar-run.js';

const PERCENTILES = ['10% percentile latency: 1.81 seconds', '50% percentile latency: 1.82 seconds', '99% percentile latency: 1.83 seconds'];

describe('vllm-bench-latency statistics without their first line', () => {
  it('are said in a warning (a paste that left out `Avg latency:`), and the whole result after them is read', () => {
    const text = ['helion:', ...PERCENTILES, '', 'cutlass:', 'Avg latency: 1.815 seconds', ...PERCENTILES, ''].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(records.filter((r) => r.kind === 'run').map((r) => r.at.line)).toEqual([7]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([['block/headless', 'warning', 2]]);
  });
});
