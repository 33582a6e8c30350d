import { constants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DiagnosticCollector, type DiagnosticSink } from '../core/diagnostic.js';
import type { TextHead, TextSource } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';
import { withoutNumberRuns } from './number-runs.js';
import { utf16Encoding } from './utf16.js';

const DEFAULTS = Object.freeze({
  /**
   * Whole-file reads above this are refused (line-mode streaming is for server logs); never above
   * the longest string V8 makes, or decoding a file just below 512 MiB would throw.
   */
  maxBytes: Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH),
  /**
   * A longer physical line keeps only its head (a 1 GB one-line file must not take 1 GB twice),
   * unless it starts a JSON document: result JSON is written on one line, and one with per-request
   * arrays (`--save-detailed`) is many megabytes long. Cut, it would lose its run.
   */
  maxLineChars: 1024 * 1024,
  sniffBytes: 8192,
});

/** What detection reads of a file's head (headOf), and of its tail (tailOf). */
export const HEAD_CHARS = 64 * 1024;

/** Reads a whole file as cleaned lines, or returns null (with a diagnostic) when it cannot. */
export function readSource(abs: string, rel: RelPath, sink: DiagnosticSink): TextSource | null {
  const at = { file: rel, line: 1, column: 1 };
  let bytes: Buffer;
  try {
    const fd = openSync(abs, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size > DEFAULTS.maxBytes) {
        sink.report('ingest/too-large', at, Math.round(size / 1e6));
        return null;
      }
      bytes = Buffer.alloc(size);
      let off = 0;
      while (off < size) {
        const n = readSync(fd, bytes, off, size - off, off);
        if (n === 0) break;
        off += n;
      }
      bytes = bytes.subarray(0, off);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    sink.report('ingest/unreadable', at, e instanceof Error ? e.message.replace(abs, rel) : String(e));
    return null;
  }
  return fromBytes(bytes, rel, sink);
}

/** Decodes and cleans bytes already in memory (used by tests and by readSource). */
export function fromBytes(bytes: Uint8Array, rel: RelPath, sink: DiagnosticSink): TextSource | null {
  const at = { file: rel, line: 1, column: 1 };
  const utf16 = utf16Encoding(bytes);
  if (utf16) sink.report('ingest/utf16', at, utf16 === 'utf-16le' ? 'little' : 'big');
  else if (looksBinary(bytes.subarray(0, DEFAULTS.sniffBytes))) {
    reportBinary(sink, rel, bytes);
    return null;
  }
  const encoding = utf16 ?? 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder(encoding).decode(bytes);
    const bad = text.split('\uFFFD').length - 1;
    sink.report(utf16 ? 'ingest/invalid-utf16' : 'ingest/invalid-utf8', at, bad);
  }
  return fromText(text, rel, sink);
}

/**
 * The start of a large file's bytes as cleaned text, for detection (headOf reads it), or null when
 * they are not text. Only as many bytes as HEAD_CHARS characters can take are decoded (four each:
 * a file's first megabyte decoded whole cost a detailed result's read as much as its skim).
 */
export function detectionSource(bytes: Uint8Array, rel: RelPath): TextSource | null {
  return fromBytes(bytes.subarray(0, 4 * HEAD_CHARS), rel, new DiagnosticCollector());
}

/** A line that starts a JSON object or array. */
const JSON_START = /^\s*[{[]/;

/** Splits and cleans decoded text; reports once per file what cleaning did. */
export function fromText(text: string, rel: RelPath, sink: DiagnosticSink): TextSource {
  const raw = text.split('\n');
  const unterminated = raw.at(-1) !== '';
  if (raw.length > 1 && !unterminated) raw.pop();
  const lines: string[] = new Array(raw.length);
  let ansiLine = 0;
  let redraws = 0;
  let firstRedraw = 0;
  let overwritten: Map<number, string> | undefined;
  for (let i = 0; i < raw.length; i++) {
    let r = raw[i] ?? '';
    if (r === '') {
      // nothing to clean (a skimmed value's line breaks are many of these)
      lines[i] = r;
      continue;
    }
    if (r.length > DEFAULTS.maxLineChars && !JSON_START.test(r)) {
      sink.report('read/long-line', { file: rel, line: i + 1, column: 1 }, r.length);
      r = r.slice(0, DEFAULTS.maxLineChars);
    }
    const c = cleanLine(r);
    lines[i] = c.text;
    if (c.overwritten !== undefined) (overwritten ??= new Map()).set(i, c.overwritten);
    if (c.hadAnsi && ansiLine === 0) ansiLine = i + 1;
    if (c.hadRedraw) {
      redraws++;
      if (firstRedraw === 0) firstRedraw = i + 1;
    }
  }
  if (ansiLine > 0) sink.report('read/ansi-stripped', { file: rel, line: ansiLine, column: 1 });
  if (redraws > 0) sink.report('read/carriage-returns', { file: rel, line: firstRedraw, column: 1 }, redraws);
  return { path: rel, lines, ...(unterminated ? { unterminated } : {}), ...(overwritten ? { overwritten } : {}) };
}

/**
 * The last 64 KiB of cleaned text, for detection: a benchmark's result block is printed at the end
 * of a log that started with something else (a server's output, tee'd into the same file). Null
 * when the head already holds the whole text.
 */
export function tailOf(source: TextSource): TextHead | null {
  const { lines } = source;
  const parts: string[] = [];
  let chars = 0;
  let i = lines.length;
  while (i > 0 && chars < HEAD_CHARS) {
    const line = lines[--i] as string;
    const room = HEAD_CHARS - chars;
    // a line longer than what is left (a one-line JSON document): its end only
    parts.push(line.length < room ? line : line.slice(line.length - room));
    chars += line.length + 1;
  }
  if (i === 0 && chars <= HEAD_CHARS) return null;
  return { path: source.path, head: forDetection(source, `${parts.reverse().join('\n')}\n`) };
}

/** The first 64 KiB of cleaned text, for detection. */
export function headOf(source: TextSource): TextHead {
  let head = '';
  for (const line of source.lines) {
    const room = HEAD_CHARS - head.length;
    if (room <= 0) break;
    // never the whole of a long line: a one-line JSON document may be hundreds of megabytes
    head += line.length < room ? `${line}\n` : line.slice(0, room);
  }
  return { path: source.path, head: forDetection(source, head) };
}

/** A JSON source's head or tail without its per-request numbers (number-runs.ts); any other as it is. */
function forDetection(source: TextSource, text: string): string {
  return startsJson(source) ? withoutNumberRuns(text) : text;
}

/** The source's first line with text (among its first few) starts a JSON object or array. */
function startsJson(source: TextSource): boolean {
  for (const line of source.lines.slice(0, 8)) if (line.trim() !== '') return JSON_START.test(line);
  return false;
}

/** Archives and compressed files by their magic bytes (and where they stand): logs are often kept so. */
const COMPRESSED: readonly (readonly [what: string, at: number, magic: readonly number[]])[] = [
  ['gzip-compressed file', 0, [0x1f, 0x8b]],
  ['zip archive', 0, [0x50, 0x4b, 0x03, 0x04]],
  ['zstd-compressed file', 0, [0x28, 0xb5, 0x2f, 0xfd]],
  ['xz-compressed file', 0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['bzip2-compressed file', 0, [0x42, 0x5a, 0x68]],
  ['7z archive', 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['tar archive', 257, [0x75, 0x73, 0x74, 0x61, 0x72]],
];

/** What a binary file's magic bytes say it is (`gzip-compressed file`; undefined: none known). */
export function compressionOf(bytes: Uint8Array): string | undefined {
  return COMPRESSED.find(([, at, magic]) => magic.every((b, i) => bytes[at + i] === b))?.[0];
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

/**
 * Files a campaign folder holds beside its logs that are no text output of any tool: plots,
 * spreadsheets, the databases and columnar files some load generators keep (EvalScope's SQLite,
 * Parquet, NumPy). Known by their magic bytes (an Office document by its zip magic and its name).
 */
const NOT_TEXT: readonly (readonly [what: string, at: number, magic: readonly number[]])[] = [
  ['PNG image', 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['JPEG image', 0, [0xff, 0xd8, 0xff]],
  ['GIF image', 0, ascii('GIF8')],
  ['WebP image', 8, ascii('WEBP')],
  ['PDF document', 0, ascii('%PDF-')],
  ['SQLite database', 0, ascii('SQLite format 3\0')],
  ['Parquet file', 0, ascii('PAR1')],
  ['Arrow file', 0, ascii('ARROW1')],
  ['HDF5 file', 0, [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['NumPy array', 0, [0x93, ...ascii('NUMPY')]],
];
const OFFICE = /\.(?:xlsx|xlsm|docx|pptx|ods|odt)$/i;

/** What kind of non-text file this is (`PNG image`), undefined for any other binary. */
function notTextKind(bytes: Uint8Array, rel: RelPath): string | undefined {
  if (OFFICE.test(rel) && compressionOf(bytes) === 'zip archive') return 'office document';
  return NOT_TEXT.find(([, at, magic]) => magic.every((b, i) => bytes[at + i] === b))?.[0];
}

/**
 * Says why a binary file is skipped: a plot or a database beside the logs with an info, anything
 * else with a warning (a log written over with NUL bytes, an archive to unpack first).
 */
export function reportBinary(sink: DiagnosticSink, rel: RelPath, bytes: Uint8Array): void {
  const at = { file: rel, line: 1, column: 1 };
  const kind = notTextKind(bytes, rel);
  if (kind !== undefined) sink.report('ingest/not-text', at, kind);
  else sink.report('ingest/binary-file', at, compressionOf(bytes));
}

function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  if (sample.indexOf(0) >= 0) return true;
  let control = 0;
  // an indexed loop: this runs over the first 8 KiB of every file of a folder
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i] as number;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 27 && b !== 12 && b !== 8) control++;
  }
  return control / sample.length > 0.1;
}
