import type { TextSource } from '../../../src/core/grammar.js';
import { stripEmbedding } from '../../../src/parse/embedding.js';
import { lexedPieces, parseTokens } from '../../../src/parse/pieces.js';
import { servingBlockParser } from './parser.js';
import { BLOCK_HEADER, servingBlockLexer } from './tokens.js';
import { blockResumer } from './resume.js';
import { type Splice, unsplice } from './splices.js';
import { type ServingBlock, type ServingItem, toItems } from './visitor.js';
import { lookupTable } from '../../../src/core/cells.js';

export type { BlockEntry, LooseEntry, ServingBlock, ServingItem } from './visitor.js';

/**
 * Lexes and parses a source into result blocks and loose label/value lines, in document order.
 * Total: the lexer's catch-all line token and the parser's loose-line rule accept any text.
 *
 * A line of a block that a server's output split in two is put back together first (splices.ts);
 * a block that ends before its footer is read on across a blank or foreign line when its lines go
 * on to its footer (resume.ts), and the loose lines it took are not given again.
 *
 * A long source goes through in pieces (src/parse/pieces.ts), each cut before a line that ends
 * any block and starts none but a block of its own (a blank line, a block header). The items come
 * a piece at a time: a reader that turns each into its record as it comes never holds the items of
 * the whole source (a sweep log of 50,000 blocks held some 130 MB of them).
 */
export function* parseServingBlocks(source: TextSource): Generator<ServingItem> {
  const { lines, splices } = unsplice(source.lines, source.overwritten);
  const cutsBefore = (i: number): boolean => {
    const text = stripEmbedding(lines[i] as string);
    return text === '' || BLOCK_HEADER.test(text);
  };
  const resumed = blockResumer(lines, splices, source.overwritten);
  for (const piece of lexedPieces(lines, cutsBefore, (text) => servingBlockLexer().tokenize(text), stripEmbedding)) {
    for (const parsed of toItems(parseTokens(servingBlockParser(), piece.tokens, (p) => p.document()))) {
      const item = resumed(parsed);
      if (item !== null) yield splices.length === 0 || item.kind !== 'block' ? item : withSplices(item, splices);
    }
  }
}

/** The block with the lines put back together in it (their rest is in the block), to report. */
function withSplices(block: ServingBlock, splices: readonly Splice[]): ServingBlock {
  const inside = splices.filter((s) => s.rest >= block.line && s.rest <= block.endLine);
  return inside.length === 0 ? block : { ...block, spliced: inside };
}

const LABEL_KEYS = new Map<string, string>();
/** Distinct labels remembered; a folder of one tool's reports has a few dozen, so this is never reached but bounds a hostile input. */
const MAX_LABEL_KEYS = 4096;

/** Canonical form of a label for alias lookup: lower case, hyphens and runs of spaces folded. */
export function labelKey(label: string): string {
  // remembered: the same few dozen labels come back in every block of every file of a folder
  let key = LABEL_KEYS.get(label);
  if (key === undefined) {
    key = label.toLowerCase().replace(/[-_]/g, ' ').replace(/\s+/g, ' ').replace(/:$/, '').trim();
    if (LABEL_KEYS.size < MAX_LABEL_KEYS) LABEL_KEYS.set(label, key);
  }
  return key;
}

const STATS: Readonly<Record<string, string>> = lookupTable({ mean: 'mean', median: 'median', std: 'std', avg: 'mean', average: 'mean', max: 'max', min: 'min' });

const LATENCY_STEMS: Readonly<Record<string, string>> = lookupTable({
  ttft: 'ttft',
  tpot: 'tpot',
  itl: 'itl',
  e2el: 'e2el',
  'e2e latency': 'e2el',
  'e2e': 'e2el',
  'client queue time': 'client_queue_time',
  'e2el incl. client queue': 'e2el_including_client_queue',
  'probe e2el': 'probe_e2el',
});

/**
 * `Mean TTFT (ms)` → `mean_ttft_ms`, `P99.9 ITL (ms)` → `p99.9_itl_ms`, `Median E2E Latency (ms)` →
 * `median_e2el_ms`. Returns null for labels that are not latency statistics.
 */
export function latencyColumn(key: string): string | null {
  const m = /^(mean|median|std|avg|average|max|min|p\d+(?:\.\d+)?) (.+?) \(ms\)$/.exec(key);
  if (!m?.[1] || !m[2]) return null;
  const stem = LATENCY_STEMS[m[2]];
  if (!stem) return null;
  const stat = STATS[m[1]] ?? m[1];
  if (stem === 'probe_e2el') return `probe_${stat}_e2el_ms`;
  return `${stat}_${stem}_ms`;
}
