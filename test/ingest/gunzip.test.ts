import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { GUNZIP_MAX_BYTES } from '../../src/ingest/gunzip.js';
import { processFile, processFileWithin } from '../../src/pipeline/process-file.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { recordsJsonl } from '../helpers/serialize.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-gunzip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('gzip-compressed files', () => {
  it.each([
    ['vllm-bench-serve/basic/input.log', 'serve.log'],
    ['vllm-server/basic/input.log', 'server.log'],
    ['vllm-bench-result-json/basic/input.json', 'result.json'],
  ])('are read as their text: %s gives the records of the plain file, at the same lines', (fixture, name) => {
    const text = readFileSync(path.join(FIXTURES, fixture));
    const plain = processFile(write(name, text), asRelPath(name));
    const packed = processFile(write(`${name}.gz`, gzipSync(text)), asRelPath(name));
    expect(packed.report.runs + packed.report.records).toBeGreaterThan(0);
    expect(recordsJsonl(packed.records)).toBe(recordsJsonl(plain.records));
    expect(packed.report.formats).toEqual(plain.report.formats);
    expect(packed.diagnostics.filter((d) => d.code !== 'ingest/gunzipped')).toEqual(plain.diagnostics);
    expect(packed.diagnostics.find((d) => d.code === 'ingest/gunzipped')?.message).toMatch(/^gzip-compressed: read as its [\d.]+ MB of text/);
  });

  it('a worker leaves one that holds more text than it reads whole to the main thread, which reads it', () => {
    const text = Buffer.concat([readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log')), Buffer.alloc(3 * 1024 * 1024, '\n')]);
    const file = write('big.log.gz', gzipSync(text));
    expect(processFileWithin(file, asRelPath('big.log.gz'), true, 1024 * 1024)).toBeNull();
    expect(processFile(file, asRelPath('big.log.gz')).report.runs).toBe(1);
  });

  it('says so, and reads nothing, for more text than it reads whole (a gzip bomb) and for a cut or corrupt file', () => {
    const bomb = write('bomb.log.gz', gzipSync(Buffer.alloc(GUNZIP_MAX_BYTES + 1024, 'x'), { level: 9 }));
    const cut = gzipSync(readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log')));
    const said = (file: string) => processFile(file, asRelPath(path.basename(file))).diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`);
    const tooLarge = `warning ingest/gzip-too-large gzip-compressed file holds more than ${GUNZIP_MAX_BYTES / 1024 / 1024} MB of text: not read (unpack it first)`;
    expect(said(bomb)).toEqual([tooLarge]);
    // larger compressed than the text allowed: not even read (sparse here; a 2 GB archive would not fit a buffer)
    const huge = write('huge.log.gz', gzipSync('x'));
    truncateSync(huge, GUNZIP_MAX_BYTES * 2);
    expect(said(huge)).toEqual([tooLarge]);
    expect(said(write('cut.log.gz', cut.subarray(0, cut.length - 100)))).toEqual(['warning ingest/gzip-unreadable gzip-compressed file could not be decompressed: unexpected end of file']);
    const corrupt = Buffer.from(cut);
    corrupt.fill(0xff, 20, 60);
    expect(said(write('corrupt.log.gz', corrupt))[0]).toMatch(/^warning ingest\/gzip-unreadable gzip-compressed file could not be decompressed: /);
  });
});
