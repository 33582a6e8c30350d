import { closeSync, openSync } from 'node:fs';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';
import { type ChunkFilter, chunkFilter, type LineFilterSpec } from './line-filter.js';
import { type ByteInput, plainInput } from './byte-input.js';
import { GunzipInput } from './gunzip-stream.js';
import { Utf16AsUtf8, type Utf16Encoding } from './utf16.js';

const DEFAULTS = Object.freeze({
  /** Longer lines keep only their head (a 1 GB one-line file must not become a 1 GB string). */
  maxLineBytes: 1024 * 1024,
});

export interface StreamStats {
  readonly lines: number;
  readonly bytes: number;
  /** The text ends without a line break: its last line may have been cut while written (TextSource.unterminated). */
  readonly unterminated: boolean;
}

/** How a file's bytes are its text: gzip-compressed or not, then UTF-16 (by its byte order mark) or UTF-8. */
export interface TextEncoding {
  readonly gzip: boolean;
  readonly utf16: Utf16Encoding | null;
}

const PLAIN_TEXT: TextEncoding = Object.freeze({ gzip: false, utf16: null });

/** Receives the lines a stream passes on. An object, not a callback: see LineStream. */
export interface LineSink {
  /**
   * `last`: the file's last line, not ended by a line break (it may have been cut while written).
   * `overwritten`: what the line began with before a `\r` redraw took its place (CleanLine.overwritten).
   */
  line(text: string, lineNo: number, last?: boolean, overwritten?: string): void;
}

/**
 * Reads a file line by line in fixed-size chunks, so memory does not grow with the file. A line the
 * `filter` does not want (no anchor, or a skip substring such as an access-log line) is counted but
 * never decoded: server logs are mostly access and request lines, and skipping them cheaply is what
 * makes large folders cost about what `grep` costs. Lines passed on are cleaned like whole-file
 * reads (CR, tqdm redraws, ANSI), with their original 1-based numbers.
 */
export function streamLines(abs: string, rel: RelPath, filter: LineFilterSpec, sink: LineSink, diagnostics: DiagnosticSink, encoding: TextEncoding = PLAIN_TEXT, headsSuffice = false): StreamStats {
  return new LineStream(rel, filter, sink, diagnostics, headsSuffice).read(abs, encoding);
}

/**
 * One file's stream. The per-line work is methods of one class, called on one sink object, so the
 * optimizing compiler sees the same call targets for every file (a closure per file would be a new
 * target each time and undo the optimized loop on every file of a folder).
 */
class LineStream {
  readonly #rel: RelPath;
  readonly #filter: ChunkFilter;
  readonly #sink: LineSink;
  readonly #diagnostics: DiagnosticSink;
  #lineNo = 0;
  #ansiLine = 0;
  #redraws = 0;
  #firstRedraw = 0;
  /** The head of a line longer than a chunk, while it is read (at most maxLineBytes of it). */
  #carry: Buffer | null = null;
  #carryTruncated = false;
  /** Its readers look only at a line's start and end (Grammar.lineHeadsOnly): a truncated line is an info. */
  readonly #headsSuffice: boolean;

  constructor(rel: RelPath, filter: LineFilterSpec, sink: LineSink, diagnostics: DiagnosticSink, headsSuffice: boolean) {
    this.#rel = rel;
    this.#filter = chunkFilter(filter);
    this.#sink = sink;
    this.#diagnostics = diagnostics;
    this.#headsSuffice = headsSuffice;
  }

  /** A gzip-compressed or UTF-16 file is streamed as the UTF-8 bytes of its text (see TextEncoding). */
  read(abs: string, encoding: TextEncoding): StreamStats {
    const fd = openSync(abs, 'r');
    const gunzip = encoding.gzip ? new GunzipInput(fd) : null;
    const bytesIn: ByteInput = gunzip ?? plainInput(fd);
    const utf16 = encoding.utf16;
    const input = utf16 ? new Utf16AsUtf8(bytesIn, utf16) : bytesIn;
    if (utf16) this.#diagnostics.report('ingest/utf16', { file: this.#rel, line: 1, column: 1 }, utf16 === 'utf-16le' ? 'little' : 'big');
    const filter = this.#filter;
    const chunk = filter.chunk;
    let bytes = 0;
    /** Bytes at the start of the chunk kept from the last read: a line it did not finish. */
    let kept = 0;
    let unterminated = false;
    try {
      for (;;) {
        const read = input.read(chunk, kept, chunk.length - kept);
        if (read === 0) break;
        bytes += read;
        const n = kept + read;
        let from = 0;
        if (this.#carry !== null) {
          // a line longer than a chunk: its head is carried, the rest passed over up to its newline
          let nl = chunk.indexOf(10);
          if (nl >= n) nl = -1;
          this.#extendCarry(chunk, 0, nl < 0 ? n : nl);
          if (nl < 0) continue;
          this.#emitCarry();
          from = nl + 1;
        }
        filter.load(n, from);
        while (filter.next()) {
          this.#lineNo += filter.passed;
          this.#emit(chunk, filter.start, filter.end);
        }
        this.#lineNo += filter.passed;
        const rest = filter.rest;
        kept = 0;
        if (rest === 0 && n === chunk.length) this.#extendCarry(chunk, 0, n);
        else if (rest < n) {
          // the unfinished line moves to the front and is read with the next chunk, like any other line
          chunk.copy(chunk, 0, rest, n);
          kept = n - rest;
        }
      }
      unterminated = (this.#carry !== null && this.#carry.length > 0) || kept > 0;
      if (this.#carry !== null && this.#carry.length > 0) this.#emitCarry(true);
      else if (kept > 0) this.#emitLast(chunk, kept);
    } finally {
      closeSync(fd);
    }
    const at = (line: number) => ({ file: this.#rel, line, column: 1 });
    if (this.#ansiLine > 0) this.#diagnostics.report('read/ansi-stripped', at(this.#ansiLine));
    if (this.#redraws > 0) this.#diagnostics.report('read/carriage-returns', at(this.#firstRedraw), this.#redraws);
    if (gunzip) {
      this.#diagnostics.report('ingest/gunzipped', at(1), gunzip.textBytes);
      if (gunzip.damaged) this.#diagnostics.report('ingest/gzip-damaged', at(1));
      if (gunzip.failure !== null) this.#diagnostics.report('ingest/gzip-cut', at(Math.max(1, this.#lineNo)), gunzip.failure);
    }
    return { lines: this.#lineNo, bytes, unterminated };
  }

  /** Appends chunk[start, end) to the line longer than a chunk, keeping at most maxLineBytes of it. */
  #extendCarry(chunk: Buffer, start: number, end: number): void {
    const have = this.#carry?.length ?? 0;
    const room = DEFAULTS.maxLineBytes - have;
    if (end - start > room) this.#carryTruncated = true;
    const piece = chunk.subarray(start, start + Math.max(0, Math.min(end - start, room)));
    this.#carry = this.#carry === null ? Buffer.from(piece) : piece.length > 0 ? Buffer.concat([this.#carry, piece]) : this.#carry;
  }

  /** The line longer than a chunk ends (`last`: the file ends inside it): it is the next line. */
  #emitCarry(last = false): void {
    const carry = this.#carry as Buffer;
    const lineNo = ++this.#lineNo;
    if (this.#carryTruncated) this.#diagnostics.report(this.#headsSuffice ? 'read/long-line-head' : 'read/long-line', { file: this.#rel, line: lineNo, column: 1 }, carry.length);
    this.#carry = null;
    this.#carryTruncated = false;
    if (this.#filter.acceptsLine(carry.toString('latin1'))) this.#emit(carry, 0, carry.length, lineNo, last);
  }

  /** The file's last line, not ended by a newline: chunk[0, length). */
  #emitLast(chunk: Buffer, length: number): void {
    const lineNo = ++this.#lineNo;
    if (this.#filter.acceptsLine(chunk.toString('latin1', 0, length))) this.#emit(chunk, 0, length, lineNo, true);
  }

  #emit(buf: Buffer, start: number, end: number, lineNo = this.#lineNo, last = false): void {
    if (lineNo === 1 && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    const c = cleanLine(buf.toString('utf8', start, end));
    if (c.hadAnsi && this.#ansiLine === 0) this.#ansiLine = lineNo;
    if (c.hadRedraw && this.#redraws++ === 0) this.#firstRedraw = lineNo;
    this.#sink.line(c.text, lineNo, last, c.overwritten);
  }
}
