import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wantsLine } from '../../src/core/grammar.js';
import { ChunkLineFilter } from '../../src/ingest/line-filter.js';

const ANCHORS = ['throughput', 'Error', 'é-anchor'];
const SKIP = ['HTTP/1.', 'Received request ', 'Added request '];
/** Lines built from pieces that hold anchors, skip literals, both, neither, or only part of one. */
const piece = fc.constantFrom('INFO ', 'Avg prompt throughput: 1.0', '"POST /v1 HTTP/1.1" 200', 'Received request cmpl-1', 'Added request ', 'Error', 'Erro', 'HTTP/1', 'é-anchor', 'ü', ' x ');
const line = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));

/** Splits the lines into chunks of `size` lines, as the stream sees them, and walks each chunk's wanted lines. */
function decisions(lines: readonly string[], size: number, filter: ChunkLineFilter): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < lines.length; i += size) {
    const text = Buffer.from(lines.slice(i, i + size).map((l) => `${l}\n`).join(''), 'utf8').toString('latin1');
    filter.load(text, 0);
    while (filter.next()) {
      for (let k = 1; k < filter.passed; k++) out.push(false);
      out.push(true);
      expect(text.slice(filter.start, filter.end)).toBe(Buffer.from(lines[out.length - 1] ?? '', 'utf8').toString('latin1'));
    }
    for (let k = 0; k < filter.passed; k++) out.push(false);
    expect(filter.rest).toBe(text.length);
  }
  return out;
}

describe('ChunkLineFilter', () => {
  it('answers exactly like wantsLine, whichever skip literals it searches ahead', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (lines, size) => {
        const spec = { anchors: ANCHORS, skip: SKIP };
        expect(decisions(lines, size, new ChunkLineFilter(spec))).toEqual(lines.map((l) => wantsLine(spec, l)));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('without anchors wants every line that holds no skip literal', () => {
    const lines = ['a', '"GET / HTTP/1.1" 200', 'Received request x', 'b'];
    expect(decisions(lines, 2, new ChunkLineFilter({ anchors: null, skip: SKIP }))).toEqual([true, false, false, true]);
  });

  it('a skip literal absent from one chunk and frequent in the next is still honoured', () => {
    const lines = [...Array(5).fill('x throughput'), ...Array(5).fill('Added request 1 throughput'), 'throughput'];
    const got = decisions(lines, 5, new ChunkLineFilter({ anchors: ANCHORS, skip: SKIP }));
    expect(got).toEqual([true, true, true, true, true, false, false, false, false, false, true]);
  });
});
