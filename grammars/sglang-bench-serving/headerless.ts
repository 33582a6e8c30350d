import type { TextSource } from '../../src/core/grammar.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { INTERLEAVED_LINE, linesBetween } from '../_shared/interleaved-line.js';
import { labelKey, type LooseEntry, type ServingBlock } from '../_shared/serving-block/index.js';

const STARTS = new Set(['backend', 'benchmark mode']);
const FOOTER = /^={20,}\s*$/;

/**
 * A block pasted without its `=== Serving Benchmark Result ===` line (issue comments often start
 * at `Backend:`): consecutive loose label lines from `Backend:` (or a fork's `Benchmark Mode:`),
 * section rules and other processes' lines (counted) allowed between them, that include
 * `Successful requests:`. Returns the pseudo block and the loose entries that are not part of one
 * (the preamble of the next real block).
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
    // one line between two of its lines at most (a section's rule), other processes' lines aside
    let j = i + 1;
    while (j < loose.length && linesBetween(source.lines, loose[j - 1]?.line ?? 0, loose[j]?.line ?? 0).own <= 1) j++;
    const group = loose.slice(i, j);
    if (group.length < 5 || !group.some((e) => labelKey(e.label) === 'successful requests')) {
      rest.push(first);
      i++;
      continue;
    }
    const last = group.at(-1)?.line ?? first.line;
    // its footer, past other processes' lines
    let below = last + 1;
    while (below <= source.lines.length && INTERLEAVED_LINE.test(stripEmbedding(source.lines[below - 1] as string))) below++;
    const footer = FOOTER.test(stripEmbedding(source.lines[below - 1] ?? ''));
    const endLine = footer ? below : last;
    blocks.push({
      kind: 'block',
      title: 'Serving Benchmark Result',
      line: first.line,
      endLine,
      footer,
      entries: group.map((e) => ({ label: e.label, value: e.value, line: e.line, section: null })),
      interleaved: linesBetween(source.lines, first.line, endLine).interleaved,
      spliced: [],
      gaps: [],
      suspectGaps: [],
    });
    i = j;
  }
  return { blocks, rest };
}
