import type { TextSource } from '../../src/core/grammar.js';
import { labelKey, type LooseEntry, type ServingBlock } from '../_shared/serving-block/index.js';

const STARTS = new Set(['backend', 'benchmark mode']);
const FOOTER = /^={20,}\s*$/;

/**
 * A block pasted without its `=== Serving Benchmark Result ===` line (issue comments often start
 * at `Backend:`): consecutive loose label lines from `Backend:` (or a fork's `Benchmark Mode:`),
 * section rules allowed between them, that include `Successful requests:`. Returns the pseudo
 * block and the loose entries that are not part of one (the preamble of the next real block).
 */
export function headerlessBlocks(loose: readonly LooseEntry[], source: TextSource): { blocks: ServingBlock[]; rest: LooseEntry[] } {
  const blocks: ServingBlock[] = [];
  const rest: LooseEntry[] = [];
  let i = 0;
  while (i < loose.length) {
    const first = loose[i];
    if (!first || !STARTS.has(labelKey(first.label))) {
      if (first) rest.push(first);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < loose.length && (loose[j]?.line ?? 0) - (loose[j - 1]?.line ?? 0) <= 2) j++;
    const group = loose.slice(i, j);
    if (group.length < 5 || !group.some((e) => labelKey(e.label) === 'successful requests')) {
      rest.push(first);
      i++;
      continue;
    }
    const last = group.at(-1)?.line ?? first.line;
    const footer = FOOTER.test(source.lines[last] ?? '');
    blocks.push({
      kind: 'block',
      title: 'Serving Benchmark Result',
      line: first.line,
      endLine: footer ? last + 1 : last,
      footer,
      entries: group.map((e) => ({ label: e.label, value: e.value, line: e.line, section: null })),
      interleaved: [],
      spliced: [],
      gaps: [],
      suspectGaps: [],
    });
    i = j;
  }
  return { blocks, rest };
}
