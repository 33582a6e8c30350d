import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asRelPath } from '../../../src/core/types.js';
import { stripEmbedding } from '../../../src/parse/embedding.js';
import { parseServingBlocks, type ServingItem } from '../../../grammars/_shared/serving-block/index.js';
import { servingBlockParser } from '../../../grammars/_shared/serving-block/parser.js';
import { servingBlockLexer } from '../../../grammars/_shared/serving-block/tokens.js';
import { toItems } from '../../../grammars/_shared/serving-block/visitor.js';
import { blockResumer } from '../../../grammars/_shared/serving-block/resume.js';

/** The reference: the whole source lexed and parsed at once, as parseServingBlocks did before it read long sources in pieces (its blocks then read across their gaps). */
function wholeParse(lines: readonly string[]): ServingItem[] {
  servingBlockParser().input = servingBlockLexer().tokenize(lines.map(stripEmbedding).join('\n')).tokens;
  const resumed = blockResumer(lines, []);
  return toItems(servingBlockParser().document()).flatMap((item) => resumed(item) ?? []);
}

/** Every kind of line the blocks' lexer tells apart, inside and outside blocks, quoted and indented as in write-ups. */
const LINE = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('============ Serving Benchmark Result ============', '==== Offline Throughput Benchmark Result ====', '>  ============ Serving Benchmark Result ============') },
  { weight: 2, arbitrary: fc.constantFrom('==================================================', '# ==================================================') },
  { weight: 10, arbitrary: fc.tuple(fc.constantFrom('Successful requests', 'Mean TTFT (ms)', 'Request throughput (req/s)', 'Benchmark duration (s)', 'Maximum request concurrency'), fc.integer({ min: 0, max: 999 })).map(([l, v]) => `${l}:   ${v}.5`) },
  { weight: 2, arbitrary: fc.constantFrom('---------------Time to First Token----------------', 'Per-position acceptance (%):') },
  { weight: 1, arbitrary: fc.constant('(APIServer pid=41) INFO 07-14 09:12:03 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s') },
  { weight: 2, arbitrary: fc.constantFrom('some prose', '```', '## heading', '100%|██████████| 160/160') },
  { weight: 3, arbitrary: fc.constantFrom('', '> ', '   ') },
);

describe('a long source read in pieces', () => {
  it('gives the items of a whole parse, numbered as in the source, wherever the pieces are cut', () => {
    fc.assert(
      fc.property(fc.array(LINE, { minLength: 4096, maxLength: 14_000 }), (lines) => {
        expect([...parseServingBlocks({ path: asRelPath('x.md'), lines })]).toEqual(wholeParse(lines));
      }),
      // no shrinking: a counterexample of thousands of lines shrinks for minutes
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('cuts a source with no blank line before its block headers', () => {
    const block = ['============ Serving Benchmark Result ============', 'Successful requests:   160', 'Benchmark duration (s):   21.59', 'Mean TTFT (ms):   118.42'];
    const lines = Array.from({ length: 3000 }, (_, i) => [...block.slice(0, 2), `Benchmark duration (s):   ${i}.59`, ...block.slice(3)]).flat();
    const items = [...parseServingBlocks({ path: asRelPath('x.log'), lines })];
    expect(items).toEqual(wholeParse(lines));
    expect(items.length).toBe(3000);
    expect(items.at(-1)).toMatchObject({ kind: 'block', line: 11_997, endLine: 12_000, footer: false });
  });
});
