import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wantsLine } from '../../src/core/grammar.js';
import { ChunkLineFilter } from '../../src/ingest/js-line-filter.js';
import { type ChunkFilter, chunkFilter, type LineFilterSpec } from '../../src/ingest/line-filter.js';
import { CHUNK_BYTES } from '../../src/ingest/scan-kernel.js';

const ANCHORS = ['throughput', 'Error', 'é-anchor'];
const SKIP = ['HTTP/1.', 'Received request ', 'Added request ', 'Rü', 'a literal longer than eight bytes, and than sixteen too'];
/** Lines built from pieces that hold anchors, skip literals, both, neither, or only part of one. */
const piece = fc.constantFrom(
  'INFO ', 'Avg prompt throughput: 1.0', '"POST /v1 HTTP/1.1" 200', 'Received request cmpl-1', 'Added request ', 'Error', 'Erro', 'HTTP/1', 'HTTP/', 'H',
  'é-anchor', 'ü', 'Rü', 'R', ' x ', 'Received reques', 'a literal longer than eight bytes, and than sixteen too', 'a literal longer than eight bytes, and than',
);
const line = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));

/** Both filters: the WebAssembly kernel (what chunkFilter picks for these literals) and the JavaScript one. */
const FILTERS: [string, (spec: LineFilterSpec) => ChunkFilter][] = [
  ['kernel', (spec) => chunkFilter(spec)],
  ['JavaScript', (spec) => new ChunkLineFilter(spec)],
];

/** Splits the lines into chunks of `size` lines, as the stream sees them, and walks each chunk's wanted lines. */
function decisions(lines: readonly string[], size: number, filter: ChunkFilter, from = 0): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < lines.length; i += size) {
    const bytes = Buffer.from(lines.slice(i, i + size).map((l) => `${l}\n`).join(''), 'utf8');
    // an unfinished line (the start of the next chunk's first line, or a carried line's end before `from`)
    const n = filter.chunk.write(`${'x'.repeat(from)}${bytes.toString('latin1')}tail HTTP`, 0, 'latin1');
    filter.load(n, from);
    while (filter.next()) {
      for (let k = 1; k < filter.passed; k++) out.push(false);
      out.push(true);
      expect(filter.chunk.toString('utf8', filter.start, filter.end)).toBe(lines[out.length - 1]);
    }
    for (let k = 0; k < filter.passed; k++) out.push(false);
    expect(filter.rest).toBe(n - 'tail HTTP'.length);
  }
  return out;
}

describe.each(FILTERS)('%s chunk filter', (_name, make) => {
  it('answers exactly like wantsLine', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 20 }), (lines, size, from) => {
        const spec = { anchors: ANCHORS, skip: SKIP };
        expect(decisions(lines, size, make(spec), from)).toEqual(lines.map((l) => wantsLine(spec, l)));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('without anchors wants every line that holds no skip literal', () => {
    const lines = ['a', '"GET / HTTP/1.1" 200', 'Received request x', 'b'];
    expect(decisions(lines, 2, make({ anchors: null, skip: SKIP }))).toEqual([true, false, false, true]);
  });

  it('a skip literal absent from one chunk and frequent in the next is still honoured', () => {
    const lines = [...Array(5).fill('x throughput'), ...Array(5).fill('Added request 1 throughput'), 'throughput'];
    const got = decisions(lines, 5, make({ anchors: ANCHORS, skip: SKIP }));
    expect(got).toEqual([true, true, true, true, true, false, false, false, false, false, true]);
  });

  it('handles a chunk nearly full of one- and two-byte lines', () => {
    const count = Math.floor(CHUNK_BYTES / 2.7); // 2.67 bytes a line, newlines included
    const lines = Array.from({ length: count }, (_, i) => (i % 3 === 0 ? 'H' : i % 3 === 1 ? 'R' : 'Rü'));
    expect(decisions(lines, count, make({ anchors: null, skip: SKIP }))).toEqual(lines.map((l) => l !== 'Rü'));
  });
});

describe('chunkFilter', () => {
  it('uses the kernel for skip literals and JavaScript without any', () => {
    expect(chunkFilter({ anchors: ANCHORS, skip: SKIP })).not.toBeInstanceOf(ChunkLineFilter);
    expect(chunkFilter({ anchors: ANCHORS, skip: [] })).toBeInstanceOf(ChunkLineFilter);
    expect(chunkFilter({ anchors: null, skip: ['x'.repeat(65)] })).toBeInstanceOf(ChunkLineFilter);
    expect(chunkFilter({ anchors: null, skip: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] })).not.toBeInstanceOf(ChunkLineFilter);
    expect(chunkFilter({ anchors: null, skip: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'] })).toBeInstanceOf(ChunkLineFilter);
  });
});
