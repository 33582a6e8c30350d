import { closeSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync, ftruncateSync, readFileSync } from 'node:fs';
import { constants } from 'node:buffer';
import { createServer, type Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { formatScanText } from '../../src/cli/reporters/scan-text.js';
import { FIXTURES } from '../helpers/fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-hostile-'));
const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'));
let server: Server;

beforeAll(async () => {
  writeFileSync(path.join(dir, 'spaces and ünïcode.log'), block);
  writeFileSync(path.join(dir, 'new\nline.log'), block);
  symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
  symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
  symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
  writeFileSync(path.join(dir, 'latin1.txt'), Buffer.concat([Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20]), block]));
  // A 1 GB file that is one line: a text head, then a sparse tail.
  const fd = openSync(path.join(dir, 'one-line.txt'), 'w');
  writeSync(fd, Buffer.alloc(2 * 1024 * 1024, 'x'));
  ftruncateSync(fd, 1024 * 1024 * 1024);
  closeSync(fd);
  // Just under 512 MiB, and longer than the longest string V8 makes: a JSON head of text, then a sparse tail.
  const json = openSync(path.join(dir, 'longest-string.json'), 'w');
  writeSync(json, `{"model_id": "m", "generated_texts": ["${'a'.repeat(16 * 1024)}`);
  ftruncateSync(json, constants.MAX_STRING_LENGTH + 12);
  closeSync(json);
  // a log kept compressed, larger than a head: stored (level 0), so it is over 1 MiB
  writeFileSync(path.join(dir, 'old.log.gz'), gzipSync(Buffer.alloc(2 * 1024 * 1024, 'x'), { level: 0 }));
  server = createServer();
  await new Promise<void>((resolve) => server.listen(path.join(dir, 'control.sock'), resolve));
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile and odd inputs', () => {
  it('gives each a diagnostic or a result, never a crash or a hang', () => {
    const t0 = Date.now();
    const result = scanPaths([dir]);
    const device = scanPaths(['/dev/null']);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f]));
    expect(byPath['spaces and ünïcode.log']?.runs).toBe(1);
    expect(byPath['new\nline.log']?.runs).toBe(1);
    expect(byPath['latin1.txt']?.runs).toBe(1);
    expect(byPath['control.sock']?.status).toBe('skipped');
    expect(byPath['loop-a']?.status).toBe('skipped');
    expect(byPath['one-line.txt']?.status).not.toBe('parsed');
    expect(byPath['longest-string.json']?.status).toBe('skipped');
    const text = result.diagnostics.map(formatDiagnostic).join('\n');
    expect(text).toContain('control.sock:1:1: warning ingest/not-a-regular-file skipped: not a regular file (socket)');
    expect(text).toContain('loop-a:1:1: warning ingest/not-a-regular-file skipped: not a regular file (symlink loop)');
    expect(text).toContain('dangling:1:1: warning ingest/not-a-regular-file skipped: not a regular file (broken symlink)');
    expect(device.diagnostics.map(formatDiagnostic)).toEqual(['null:1:1: warning ingest/not-a-regular-file skipped: not a regular file (device)']);
    expect(text).toContain('latin1.txt:1:1: info ingest/invalid-utf8');
    expect(text).toMatch(/longest-string\.json:1:1: warning ingest\/too-large file of 537 MB/);
    // read as its text (2 MiB of x: no format)
    expect(text).toContain('old.log.gz:1:1: info ingest/gunzipped gzip-compressed: read as its 2.1 MB of text');
    expect(byPath['old.log.gz']?.status).toBe('unrecognized');
  });

  it('prints a file name holding a newline quoted, so each diagnostic stays one line', () => {
    const d = { code: 'detect/unrecognized' as const, severity: 'info' as const, message: 'm', file: 'a\nb' as never, line: 1, column: 1 };
    expect(formatDiagnostic(d)).toBe('"a\\nb":1:1: info detect/unrecognized m');
  });

  it('lists a file name holding a newline quoted in the scan listing too', () => {
    const listing = formatScanText(scanPaths([dir]).files);
    expect(listing).toContain('"new\\nline.log"');
    expect(listing.split('\n').filter((l) => l !== '').length).toBe(scanPaths([dir]).files.length);
  });
});
