import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import { plainInput } from '../../src/ingest/byte-input.js';
import { Utf16AsUtf8, type Utf16Encoding } from '../../src/ingest/utf16.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { recordsJsonl } from '../helpers/serialize.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-utf16-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `text` as a UTF-16 file with its byte order mark, as PowerShell's `>` writes it. */
function utf16(text: string, encoding: Utf16Encoding): Buffer {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
}

/** Records and diagnostics of one file, its name taken out (the same text is compared under several names). */
function scanOne(name: string, bytes: Buffer): { records: string; diagnostics: string[] } {
  const sub = mkdtempSync(path.join(dir, 'case-'));
  writeFileSync(path.join(sub, name), bytes);
  const result = scanPaths([sub]);
  expect(result.files.map((f) => f.status)).toEqual(['parsed']);
  return {
    records: recordsJsonl(result.records).replaceAll(name, 'F'),
    diagnostics: result.diagnostics.map(formatDiagnostic).map((d) => d.replaceAll(name, 'F')),
  };
}

const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'utf8');
const serverLog = readFileSync(path.join(FIXTURES, 'vllm-server/basic/input.log'), 'utf8');
const statsLine = serverLog.split('\n').find((l) => l.includes('Avg prompt throughput')) as string;

describe('UTF-16 text files (byte order mark)', () => {
  it('read whole give what the same text in UTF-8 gives, with an info saying how it was read', () => {
    const text = `# café ☕ 𝛼-sweep\r\n${block}`;
    const expected = scanOne('run.log', Buffer.from(text, 'utf8'));
    expect(expected.records).toContain('"format":"vllm-bench-serve","kind":"run"');
    for (const [encoding, endian] of [['utf-16le', 'little'], ['utf-16be', 'big']] as const) {
      const got = scanOne('run.log', utf16(text, encoding));
      expect(got.records).toBe(expected.records);
      expect(got.diagnostics).toEqual([...expected.diagnostics, `F:1:1: info ingest/utf16 UTF-16 text (${endian}-endian byte order mark): read as such`].sort());
    }
  });

  it('streamed (a large server log with a result block at its end) give what the UTF-8 text gives', () => {
    // a stats line every few lines, non-ASCII and astral characters across the 64 KiB blocks, over 1 MiB
    const lines = serverLog.trimEnd().split('\n');
    for (let i = 0, chars = serverLog.length; chars < 1.5 * 1024 * 1024; i++) {
      // lines no grammar wants fill what detection reads of them: the block is found by the file's end
      const line = i % 3 === 0 ? statsLine : i % 3 === 1 ? `(APIServer pid=4121) INFO:     127.0.0.1:${40000 + i} - "POST /v1/chat/completions HTTP/1.1" 200 OK` : `(EngineCore_0 pid=4390) INFO 06-03 09:16:01 [core.py:${i}] ✓ 𝛼${'é'.repeat(i % 7)}`;
      lines.push(line);
      chars += line.length + 1;
    }
    const text = `${lines.join('\n')}\n${block}`;
    const expected = scanOne('tee.log', Buffer.from(text, 'utf8'));
    expect(expected.records).toContain('"kind":"timeline"');
    expect(expected.records).toContain('"format":"vllm-bench-serve","kind":"run"');
    for (const encoding of ['utf-16le', 'utf-16be'] as const) {
      const got = scanOne('tee.log', utf16(text, encoding));
      expect(got.records).toBe(expected.records);
      expect(got.diagnostics.filter((d) => !d.includes('ingest/utf16'))).toEqual(expected.diagnostics);
    }
  });

  it('are transcoded exactly whatever the reads split (a character between two reads, a code unit between two blocks)', () => {
    const text = `a☕𝛼é\n${'x'.repeat(64 * 1024 - 3)}𝛼${'ü'.repeat(70_000)}\n𝛼`;
    for (const encoding of ['utf-16le', 'utf-16be'] as const) {
      const file = path.join(dir, `split-${encoding}.txt`);
      writeFileSync(file, utf16(text, encoding));
      const fd = openSync(file, 'r');
      const input = new Utf16AsUtf8(plainInput(fd), encoding);
      const pieces: Buffer[] = [];
      for (let size = 1; ; size = (size % 5) + 1) {
        const buf = Buffer.alloc(size);
        const n = input.read(buf, 0, size);
        if (n === 0) break;
        pieces.push(buf.subarray(0, n));
      }
      closeSync(fd);
      expect(Buffer.concat(pieces).toString('utf8')).toBe(text);
    }
  });

  it('without a byte order mark stay binary (nothing else tells them from binary data for sure)', () => {
    const sub = mkdtempSync(path.join(dir, 'case-'));
    writeFileSync(path.join(sub, 'run.log'), Buffer.from(block, 'utf16le'));
    expect(scanPaths([sub]).diagnostics.map(formatDiagnostic)).toEqual(['run.log:1:1: warning ingest/binary-file binary file skipped (NUL bytes or control characters)']);
  });
});
