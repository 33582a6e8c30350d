import { brotliCompressSync, gzipSync } from 'node:zlib';
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

  it('says when the text ends without a line break (its last line may have been cut while written)', () => {
    const sink = new DiagnosticCollector();
    expect(fromBytes(Buffer.from('a\nb'), asRelPath('f.log'), sink)).toEqual({ path: 'f.log', lines: ['a', 'b'], unterminated: true });
    expect(fromBytes(Buffer.from('a\nb\n'), asRelPath('f.log'), sink)).toEqual({ path: 'f.log', lines: ['a', 'b'] });
    expect(fromBytes(Buffer.from('a\r\nb\r\n'), asRelPath('f.log'), sink)?.unterminated).toBeUndefined();
  });

  it('keeps what a terminal shows after tqdm redraws and reports it once', () => {
    const sink = new DiagnosticCollector();
    const src = fromBytes(Buffer.from(' 10%|█ | 1/10\r 100%|██| 10/10\r\nnext\n'), rel, sink);
    expect(src?.lines).toEqual([' 100%|██| 10/10', 'next']);
    expect(sink.list().map((d) => d.code)).toEqual(['read/carriage-returns']);
  });

  it("keeps a line's head that a redraw took the place of, beside the cleaned lines", () => {
    const bar = '\r  0%|          | 0/160 [00:00<?, ?it/s]\r100%|██████████| 160/160 [00:10<00:00, 15.1it/s]';
    expect(cleanLine(`Total input tokens:   1638${bar}`)).toMatchObject({ text: '100%|██████████| 160/160 [00:10<00:00, 15.1it/s]', overwritten: 'Total input tokens:   1638' });
    expect(cleanLine(`\x1b[1mMean TTFT (ms):\x1b[0m   4${bar}`).overwritten).toBe('Mean TTFT (ms):   4');
    // a bar's own line, a CRLF, a redraw back to what the line began with: nothing drawn over
    // (and a head longer than any line it could be joined into)
    for (const raw of [bar, 'Total input tokens:   163840\r', 'Total input tokens:   163840\r   ', `  ${bar}`, `${'x'.repeat(5000)}${bar}`]) expect(cleanLine(raw), raw.slice(0, 40)).not.toHaveProperty('overwritten');
    const sink = new DiagnosticCollector();
    const src = fromBytes(Buffer.from(`a\nTotal input tokens:   1638${bar}\n40\n`), rel, sink);
    expect(src?.lines).toEqual(['a', '100%|██████████| 160/160 [00:10<00:00, 15.1it/s]', '40']);
    expect(src?.overwritten).toEqual(new Map([[1, 'Total input tokens:   1638']]));
    expect(fromBytes(Buffer.from('a\nb\n'), rel, sink)).not.toHaveProperty('overwritten');
  });

  it('strips ANSI colours', () => {
    expect(cleanLine('\x1b[1;36m(APIServer pid=1)\x1b[0;0m \x1b[32mINFO\x1b[0m hi').text).toBe('(APIServer pid=1) INFO hi');
  });

  it('refuses binary content with a diagnostic', () => {
    const sink = new DiagnosticCollector();
    expect(fromBytes(Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]), rel, sink)).toBeNull();
    expect(sink.list()[0]).toMatchObject({ code: 'ingest/binary-file', file: 'x.log', line: 1 });
  });

  it("says plots, spreadsheets and tools' databases beside the logs with an info, not a warning", () => {
    const said = (bytes: Uint8Array, name = 'x.bin'): string => {
      const sink = new DiagnosticCollector();
      expect(fromBytes(bytes, asRelPath(name), sink)).toBeNull();
      return sink.list().map((d) => `${d.severity} ${d.code} ${d.message}`).join();
    };
    const padded = (head: number[]): Uint8Array => Uint8Array.from([...head, ...new Array<number>(64).fill(0)]);
    expect(said(padded([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'ttft.png')).toBe('info ingest/not-text PNG image: not a text output, skipped');
    expect(said(Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(64)]), 'benchmark_data.db')).toBe('info ingest/not-text SQLite database: not a text output, skipped');
    // an Office document is a zip: known by its name; any other zip is an archive to unpack
    const zip = padded([0x50, 0x4b, 0x03, 0x04]);
    expect(said(zip, 'experiment_summary.xlsx')).toBe('info ingest/not-text office document: not a text output, skipped');
    expect(said(zip, 'results.zip')).toBe('warning ingest/binary-file zip archive skipped (compressed files and archives are not read: unpack it first)');
    // anything else binary is still a warning: a log overwritten with NUL bytes must not pass quietly
    expect(said(padded([0x7f, 0x45, 0x4c, 0x46]), 'server.log')).toBe('warning ingest/binary-file binary file skipped (NUL bytes or control characters)');
  });

  it('names a compressed file or an archive it skips, so the user knows to unpack it', () => {
    const text = Buffer.from('============ Serving Benchmark Result ============\n'.repeat(50));
    const tar = Buffer.alloc(1024);
    tar.write('run.log', 0);
    tar.write('ustar', 257);
    const said = (bytes: Uint8Array): string => {
      const sink = new DiagnosticCollector();
      expect(fromBytes(bytes, rel, sink)).toBeNull();
      return sink.list().map((d) => d.message).join();
    };
    expect(said(gzipSync(text))).toBe('gzip-compressed file skipped (compressed files and archives are not read: unpack it first)');
    expect(said(brotliCompressSync(text))).toBe('binary file skipped (NUL bytes or control characters)');
    expect(said(tar)).toBe('tar archive skipped (compressed files and archives are not read: unpack it first)');
    expect(said(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]))).toMatch(/^zip archive skipped/);
    // a text file that starts like an archive's magic is text
    expect(fromBytes(Buffer.from('BZh is how bzip2 starts\n'), rel, new DiagnosticCollector())?.lines).toEqual(['BZh is how bzip2 starts']);
  });

  it('replaces invalid UTF-8 and says how much', () => {
    const sink = new DiagnosticCollector();
    const src = fromBytes(Uint8Array.from([0x61, 0xff, 0xfe, 0x62, 0x0a]), rel, sink);
    expect(src?.lines).toEqual(['a\uFFFD\uFFFDb']);
    expect(sink.list()[0]?.message).toBe('2 invalid UTF-8 byte sequences replaced');
  });
});
