import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { wantsLine } from '../../src/core/grammar.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { cleanLine } from '../../src/ingest/clean-line.js';
import { streamLines } from '../../src/ingest/line-stream.js';
import { CHUNK_BYTES } from '../../src/ingest/scan-kernel.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-line-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = { anchors: ['throughput', 'é-anchor'], skip: ['HTTP/1.', 'Received request '] };
/** Pieces that hold anchors, skip literals, CR, ANSI, multi-byte characters, and fillers long enough that two of them fill more than one of the stream's chunks. */
const piece = fc.oneof(
  fc.constantFrom('INFO ', 'Avg prompt throughput: 1.0', '"POST /v1 HTTP/1.1" 200', 'Received request x', 'é-anchor', 'ü', '\r', '\x1b[31m', 'HTTP/1', 'through'),
  fc.integer({ min: 1, max: Math.round(CHUNK_BYTES * 0.7) }).map((n) => 'x'.repeat(n)),
);
const line = fc.array(piece, { maxLength: 4 }).map((p) => p.join(''));

/** What a whole-file read would pass on: every line, cleaned, that the filter wants, with its number. */
function expected(bytes: Buffer): [string, number][] {
  const raw = bytes.toString('latin1').split('\n');
  if (raw.at(-1) === '') raw.pop();
  const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  const spec = { anchors: SPEC.anchors.map(latin1), skip: SPEC.skip.map(latin1) };
  const out: [string, number][] = [];
  raw.forEach((l, i) => {
    const text = i === 0 && l.startsWith('\xef\xbb\xbf') ? l.slice(3) : l;
    if (wantsLine(spec, text)) out.push([cleanLine(Buffer.from(text, 'latin1').toString('utf8')).text, i + 1]);
  });
  return out;
}

function streamed(file: string): { lines: [string, number][]; count: number; unterminated: boolean } {
  const lines: [string, number][] = [];
  const stats = streamLines(file, asRelPath('x.log'), SPEC, { line: (text, n) => lines.push([text, n]) }, new DiagnosticCollector());
  return { lines, count: stats.lines, unterminated: stats.unterminated };
}

describe('streamLines', () => {
  it('passes on exactly the wanted lines of a whole-file read, with their numbers, wherever chunks split them', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.boolean(), fc.boolean(), (lines, bom, finalNewline) => {
        const text = `${bom ? '\ufeff' : ''}${lines.join('\n')}${finalNewline && lines.length > 0 ? '\n' : ''}`;
        const bytes = Buffer.from(text, 'utf8');
        const file = path.join(dir, 'x.log');
        writeFileSync(file, bytes);
        const got = streamed(file);
        expect(got.lines).toEqual(expected(bytes));
        const physical = bytes.toString('latin1').split('\n');
        expect(got.count).toBe(physical.at(-1) === '' ? physical.length - 1 : physical.length);
        // the text ends inside its last line (as a whole read's TextSource.unterminated)
        expect(got.unterminated).toBe(physical.at(-1) !== '');
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('keeps the head of a line longer than 1 MiB and says so at its line', () => {
    const file = path.join(dir, 'long.log');
    writeFileSync(file, `a throughput\n${'y'.repeat(3_000_000)} throughput\nb throughput\n`);
    const sink = new DiagnosticCollector();
    const lines: [string, number][] = [];
    streamLines(file, asRelPath('long.log'), { anchors: null, skip: [] }, { line: (t, n) => lines.push([t.slice(0, 14), n]) }, sink);
    expect(lines).toEqual([['a throughput', 1], ['yyyyyyyyyyyyyy', 2], ['b throughput', 3]]);
    expect(sink.list().map((d) => [d.code, d.line])).toEqual([['read/long-line', 2]]);
  });
});
