import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { cleanLine } from '../../src/ingest/clean-line.js';
import { fromBytes } from '../../src/ingest/read.js';

const rel = asRelPath('x.log');

describe('read', () => {
  it('strips a BOM, CRLF and keeps line numbers', () => {
    const sink = new DiagnosticCollector();
    const src = fromBytes(Buffer.from('\uFEFFa\r\nb\r\n\r\nc'), rel, sink);
    expect(src?.lines).toEqual(['a', 'b', '', 'c']);
  });

  it('keeps what a terminal shows after tqdm redraws and reports it once', () => {
    const sink = new DiagnosticCollector();
    const src = fromBytes(Buffer.from(' 10%|█ | 1/10\r 100%|██| 10/10\r\nnext\n'), rel, sink);
    expect(src?.lines).toEqual([' 100%|██| 10/10', 'next']);
    expect(sink.list().map((d) => d.code)).toEqual(['read/carriage-returns']);
  });

  it('strips ANSI colours', () => {
    expect(cleanLine('\x1b[1;36m(APIServer pid=1)\x1b[0;0m \x1b[32mINFO\x1b[0m hi').text).toBe('(APIServer pid=1) INFO hi');
  });

  it('refuses binary content with a diagnostic', () => {
    const sink = new DiagnosticCollector();
    expect(fromBytes(Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]), rel, sink)).toBeNull();
    expect(sink.list()[0]).toMatchObject({ code: 'ingest/binary-file', file: 'x.log', line: 1 });
  });

  it('replaces invalid UTF-8 and says how much', () => {
    const sink = new DiagnosticCollector();
    const src = fromBytes(Uint8Array.from([0x61, 0xff, 0xfe, 0x62, 0x0a]), rel, sink);
    expect(src?.lines).toEqual(['a\uFFFD\uFFFDb']);
    expect(sink.list()[0]?.message).toBe('2 invalid UTF-8 byte sequences replaced');
  });
});
