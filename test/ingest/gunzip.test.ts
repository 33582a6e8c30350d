import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import type { Diagnostic } from '../../src/core/diagnostic.js';
import { GUNZIP_MAX_BYTES } from '../../src/ingest/gunzip.js';
import { GunzipInput } from '../../src/ingest/gunzip-stream.js';
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
    expect(packed.diagnostics.find((d) => d.code === 'ingest/gunzipped')?.message).toMatch(/^gzip-compressed: read as its [\d.]+ kB of text/);
  });

  it('a worker leaves one that holds more text than it reads whole to the main thread, which reads it', () => {
    const text = Buffer.concat([readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log')), Buffer.alloc(3 * 1024 * 1024, '\n')]);
    const file = write('big.log.gz', gzipSync(text));
    expect(processFileWithin(file, asRelPath('big.log.gz'), true, 1024 * 1024)).toBeNull();
    expect(processFile(file, asRelPath('big.log.gz')).report.runs).toBe(1);
  });

  it('streams a server log of more text than it reads whole, in a worker too, giving what the plain log gives', () => {
    const { plain, packed } = bigServerLog();
    const fromPlain = processFile(plain, asRelPath('server.log'));
    const fromPacked = processFileWithin(packed, asRelPath('server.log'), true, 1024 * 1024);
    expect(fromPacked).not.toBeNull();
    expect(fromPlain.report.records).toBeGreaterThan(1);
    expect(recordsJsonl(fromPacked?.records ?? [])).toBe(recordsJsonl(fromPlain.records));
    expect(said(fromPacked?.diagnostics ?? [])).toEqual([...said(fromPlain.diagnostics), `info ingest/gunzipped gzip-compressed: read as its ${Math.round(readFileSync(plain).length / 1e5) / 10} MB of text (line numbers are the text's)`]);
  });

  it('reads a result JSON of more text than it reads whole without its per-request arrays, as a plain one is', () => {
    const result = JSON.parse(readFileSync(path.join(FIXTURES, 'vllm-bench-result-json/basic/input.json'), 'utf8')) as Record<string, unknown>;
    const n = Math.ceil(GUNZIP_MAX_BYTES / 50);
    const text = Buffer.from(JSON.stringify({ ...result, generated_texts: Array.from({ length: n }, (_, i) => `a generated text of request ${i}, some 60 bytes`) }));
    expect(text.length).toBeGreaterThan(GUNZIP_MAX_BYTES);
    const plain = processFile(write('detailed.json', text), asRelPath('detailed.json'));
    const packed = processFileWithin(write('detailed.json.gz', gzipSync(text, { level: 1 })), asRelPath('detailed.json'), true, 16 * 1024 * 1024);
    expect(plain.report.runs).toBe(1);
    expect(recordsJsonl(packed?.records ?? [])).toBe(recordsJsonl(plain.records));
    expect(said(packed?.diagnostics ?? [])).toEqual([...said(plain.diagnostics), `info ingest/gunzipped gzip-compressed: read as its ${Math.round(text.length / 1e5) / 10} MB of text (line numbers are the text's)`]);
  });

  it('reads a cut file up to the cut, streamed or whole, as its text up to there reads, and says where it stops', () => {
    const { packed } = bigServerLog();
    const small = gzipSync(readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log')));
    for (const [name, bytes] of [
      ['cut-big.log', readFileSync(packed).subarray(0, Math.floor(readFileSync(packed).length * 0.6))],
      ['cut-small.log', small.subarray(0, small.length - 100)],
      // all the text there, not its check
      ['cut-trailer.log', small.subarray(0, small.length - 5)],
    ] as const) {
      const cut = write(`${name}.gz`, bytes);
      const text = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
      const prefix = processFile(write(name, text), asRelPath(name));
      const got = processFile(cut, asRelPath(name));
      expect(got.report.runs + got.report.records).toBeGreaterThan(0);
      expect(recordsJsonl(got.records)).toBe(recordsJsonl(prefix.records));
      const lastLine = text.toString('utf8').replace(/\n$/, '').split('\n').length;
      expect(said(got.diagnostics).filter((d) => !d.includes('ingest/gunzipped'))).toEqual(said(prefix.diagnostics).concat(`warning ingest/gzip-cut gzip-compressed file could not be decompressed past this line (the data ends early): the text before it is read`));
      expect(got.diagnostics.find((d) => d.code === 'ingest/gzip-cut')?.line).toBe(lastLine);
    }
  });

  it('reads a file whose text fails its check (a flipped byte in any member), and says its values may be wrong', () => {
    const text = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'));
    const good = gzipSync(text, { level: 0 });
    // stored, not compressed: a flipped byte of text is read as it is, only the check tells
    const at = good.indexOf('Successful requests');
    const flipped = Buffer.from(good);
    flipped[at] = 's'.charCodeAt(0);
    const damaged = 'warning ingest/gzip-damaged gzip-compressed file fails its integrity check (its text does not match its CRC-32: cut short, or damaged): read, but its values may be wrong in places';
    const read = (bytes: Uint8Array) => processFile(write('checked.log.gz', bytes), asRelPath('checked.log'));
    expect(said(read(Buffer.concat([good, good])).diagnostics)).not.toContain(damaged);
    for (const bytes of [flipped, Buffer.concat([flipped, good]), Buffer.concat([good, flipped])]) {
      const got = read(bytes);
      expect(said(got.diagnostics)).toContain(damaged);
      expect(got.report.runs).toBeGreaterThan(0);
    }
  });

  it('says a file is damaged when the damage leaves its text unrecognizable, not only that no format was found', () => {
    const text = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'));
    const good = gzipSync(text);
    const codes = (bytes: Uint8Array) => processFile(write('garbled.log.gz', bytes), asRelPath('garbled.log.gz')).diagnostics.map((d) => d.code);
    // every byte of the compressed data flipped in turn: the file is read, or said to be damaged
    let unrecognized = 0;
    for (let at = 10; at < good.length - 8; at++) {
      const flipped = Buffer.from(good);
      flipped[at] = (flipped[at] as number) ^ 0xff;
      for (const bytes of [flipped, Buffer.concat([flipped, Buffer.from('garbage after it')])]) {
        const got = codes(bytes);
        if (!got.includes('detect/unrecognized')) continue;
        unrecognized++;
        expect(got.some((c) => c === 'ingest/gzip-damaged' || c === 'ingest/gzip-cut' || c === 'ingest/gzip-unreadable'), `byte ${at}: ${got.join(', ')}`).toBe(true);
      }
    }
    expect(unrecognized).toBeGreaterThan(0);
  });

  it('says so for more text than it reads whole of what is no server log, and for a file that is not gzip inside', () => {
    const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'));
    const bomb = write('bomb.log.gz', gzipSync(Buffer.concat([block, Buffer.alloc(GUNZIP_MAX_BYTES, '\n')]), { level: 9 }));
    expect(said(processFile(bomb, asRelPath('bomb.log.gz')).diagnostics)).toEqual([
      `warning ingest/gzip-too-large gzip-compressed file holds more than ${GUNZIP_MAX_BYTES / 1024 / 1024} MB of text, more than is read whole of what is neither a server log nor a result JSON: not read (unpack it first)`,
    ]);
    expect(processFileWithin(bomb, asRelPath('bomb.log.gz'), true, 1024 * 1024)).toBeNull();
    const zeros = write('zeros.log.gz', gzipSync(Buffer.alloc(GUNZIP_MAX_BYTES + 1024), { level: 9 }));
    expect(said(processFile(zeros, asRelPath('zeros.log.gz')).diagnostics)).toEqual(['warning ingest/binary-file binary file skipped (NUL bytes or control characters)']);
    const corrupt = Buffer.from(gzipSync(block));
    corrupt.fill(0xff, 10, 60);
    expect(said(processFile(write('corrupt.log.gz', corrupt), asRelPath('corrupt.log.gz')).diagnostics)[0]).toMatch(/^warning ingest\/gzip-unreadable gzip-compressed file could not be decompressed: /);
  });
});

describe('a gzip stream', () => {
  it('gives the text of every member exactly, whatever the reads split', () => {
    const text = `a☕𝛼é\n${'x'.repeat(70_000)}\n`;
    const got = streamed(Buffer.concat([gzipSync(text), gzipSync('second\n'), gzipSync('')]), (size) => (size * 7) % 9001, 1);
    expect(got).toEqual({ text: `${text}second\n`, failure: null, damaged: false, textBytes: Buffer.byteLength(`${text}second\n`) });
  });
});

/** What a gzip stream of `bytes` gives, read in the sizes `next` makes from `first` on, and how it ends. */
function streamed(bytes: Uint8Array, next: (size: number) => number, first: number): { text: string; failure: string | null; damaged: boolean; textBytes: number } {
  const fd = openSync(write('stream.gz', bytes), 'r');
  try {
    const input = new GunzipInput(fd);
    const pieces: Buffer[] = [];
    for (let size = first; ; size = next(size)) {
      const buf = Buffer.alloc(size);
      const n = input.read(buf, 0, size);
      if (n === 0) break;
      pieces.push(buf.subarray(0, n));
    }
    return { text: Buffer.concat(pieces).toString('utf8'), failure: input.failure, damaged: input.damaged, textBytes: input.textBytes };
  } finally {
    closeSync(fd);
  }
}

describe('zero padding after the last member', () => {
  const text = `first\n${'y'.repeat(9000)}\nlast\n`;
  /** Everything the stream gives, read in odd sizes. */
  const readAll = (bytes: Uint8Array): { text: string; failure: string | null; damaged: boolean } => {
    const { text: got, failure, damaged } = streamed(bytes, (size) => (size * 5) % 7001, 3);
    return { text: got, failure, damaged };
  };

  // a text shorter than 16 MB: its trailer's last byte is a zero too
  it.each([1, 7, 8, 4096, 300_000])('ends the text as gzip does, without a warning (%i zero bytes)', (zeros) => {
    for (const members of [[gzipSync(text)], [gzipSync(text), gzipSync('more\n')]]) {
      const got = readAll(Buffer.concat([...members, Buffer.alloc(zeros)]));
      expect(got).toEqual({ text: members.length === 1 ? text : `${text}more\n`, failure: null, damaged: false });
    }
  });

  it('is no padding with anything but zeros after it, or a trailer that does not match the text', () => {
    const cut = readAll(Buffer.concat([gzipSync(text), Buffer.alloc(100), Buffer.from([1]), Buffer.alloc(10)]));
    expect([cut.text, cut.failure]).toEqual([text, 'invalid gzip data']);
    const packed = Buffer.from(gzipSync(text));
    packed.writeUInt32LE(0xdeadbeef, packed.length - 8);
    expect(readAll(Buffer.concat([packed, Buffer.alloc(100)])).failure).toBe('invalid gzip data');
  });

  it('warns of bytes after the last member that a zero byte starts, keeping the text before them', () => {
    const text = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'));
    const plain = processFile(write('serve.log', text), asRelPath('serve.log'));
    const packed = gzipSync(text);
    for (const tail of [Buffer.from([0, 1, 2]), Buffer.concat([Buffer.alloc(100), Buffer.from('garbage')])]) {
      const got = processFile(write('tail.log.gz', Buffer.concat([packed, tail])), asRelPath('serve.log'));
      expect(recordsJsonl(got.records)).toBe(recordsJsonl(plain.records));
      expect(got.diagnostics.map((d) => d.code).filter((c) => c === 'ingest/gzip-cut' || c === 'ingest/gzip-damaged')).toHaveLength(1);
    }
    const padded = processFile(write('padded.log.gz', Buffer.concat([packed, Buffer.alloc(100)])), asRelPath('serve.log'));
    expect(said(padded.diagnostics).filter((d) => d.startsWith('warning'))).toEqual([]);
  });

  it('leaves a streamed server log padded with zeros without a warning', () => {
    const { plain, packed } = bigServerLog();
    const padded = write('padded-server.log.gz', Buffer.concat([readFileSync(packed), Buffer.alloc(10_240)]));
    const got = processFile(padded, asRelPath('server.log'));
    expect(recordsJsonl(got.records)).toBe(recordsJsonl(processFile(plain, asRelPath('server.log')).records));
    expect(said(got.diagnostics).filter((d) => d.startsWith('warning'))).toEqual([]);
  });
});

function said(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`);
}

/** A vLLM server log with more than GUNZIP_MAX_BYTES of access lines between its start and its stats, plain and packed. */
function bigServerLog(): { plain: string; packed: string } {
  const plain = path.join(dir, 'big-server.log');
  const packed = `${plain}.gz`;
  if (!existsSync(packed)) {
    const lines = readFileSync(path.join(FIXTURES, 'vllm-server/basic/input.log'), 'utf8').split('\n');
    const access = '(APIServer pid=4121) INFO:     127.0.0.1:40118 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n';
    const text = Buffer.concat([
      Buffer.from(`${lines.slice(0, 19).join('\n')}\n`),
      Buffer.from(access.repeat(Math.ceil((GUNZIP_MAX_BYTES * 1.1) / access.length))),
      Buffer.from(lines.slice(19).join('\n')),
    ]);
    writeFileSync(plain, text);
    writeFileSync(packed, gzipSync(text, { level: 1 }));
  }
  return { plain, packed };
}
