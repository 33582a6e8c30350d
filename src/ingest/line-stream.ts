import { closeSync, openSync, readSync } from 'node:fs';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';
import { type ChunkFilter, chunkFilter, type LineFilterSpec } from './line-filter.js';

const DEFAULTS = Object.freeze({
  /** Longer lines keep only their head (a 1 GB one-line file must not become a 1 GB string). */
  maxLineBytes: 1024 * 1024,
});

export interface StreamStats {
  readonly lines: number;
  readonly bytes: number;
}

/** Receives the lines a stream passes on. An object, not a callback: see LineStream. */
export interface LineSink {
  line(text: string, lineNo: number): void;
}

/**
 * Reads a file line by line in fixed-size chunks, so memory does not grow with the file. A line the
 * `filter` does not want (no anchor, or a skip substring such as an access-log line) is counted but
 * never decoded: server logs are mostly access and request lines, and skipping them cheaply is what
 * makes large folders cost about what `grep` costs. Lines passed on are cleaned like whole-file
 * reads (CR, tqdm redraws, ANSI), with their original 1-based numbers.
 */
export function streamLines(abs: string, rel: RelPath, filter: LineFilterSpec, sink: LineSink, diagnostics: DiagnosticSink): StreamStats {
  return new LineStream(rel, filter, sink, diagnostics).read(abs);
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
  /** The start of a line that continues in the next chunk (at most maxLineBytes of it). */
  #carry: Buffer | null = null;
  #carryTruncated = false;

  constructor(rel: RelPath, filter: LineFilterSpec, sink: LineSink, diagnostics: DiagnosticSink) {
    this.#rel = rel;
    this.#filter = chunkFilter(filter);
    this.#sink = sink;
    this.#diagnostics = diagnostics;
  }

  read(abs: string): StreamStats {
    const fd = openSync(abs, 'r');
    const filter = this.#filter;
    const chunk = filter.chunk;
    let bytes = 0;
    try {
      for (;;) {
        const n = readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        bytes += n;
        let from = 0;
        if (this.#carry !== null) {
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
        if (filter.rest < n) this.#extendCarry(chunk, filter.rest, n);
      }
      if (this.#carry !== null && this.#carry.length > 0) this.#emitCarry();
    } finally {
      closeSync(fd);
    }
    const at = (line: number) => ({ file: this.#rel, line, column: 1 });
    if (this.#ansiLine > 0) this.#diagnostics.report('read/ansi-stripped', at(this.#ansiLine));
    if (this.#redraws > 0) this.#diagnostics.report('read/carriage-returns', at(this.#firstRedraw), this.#redraws);
    return { lines: this.#lineNo, bytes };
  }

  /** Appends chunk[start, end) to the line that spans chunks, keeping at most maxLineBytes of it. */
  #extendCarry(chunk: Buffer, start: number, end: number): void {
    const have = this.#carry?.length ?? 0;
    const room = DEFAULTS.maxLineBytes - have;
    if (end - start > room) this.#carryTruncated = true;
    const piece = chunk.subarray(start, start + Math.max(0, Math.min(end - start, room)));
    this.#carry = this.#carry === null ? Buffer.from(piece) : piece.length > 0 ? Buffer.concat([this.#carry, piece]) : this.#carry;
  }

  /** The line that spanned chunks ends: it is the next line. */
  #emitCarry(): void {
    const carry = this.#carry as Buffer;
    const lineNo = ++this.#lineNo;
    if (this.#carryTruncated) this.#diagnostics.report('read/long-line', { file: this.#rel, line: lineNo, column: 1 }, carry.length);
    this.#carry = null;
    this.#carryTruncated = false;
    if (this.#filter.acceptsLine(carry.toString('latin1'))) this.#emit(carry, 0, carry.length, lineNo);
  }

  #emit(buf: Buffer, start: number, end: number, lineNo = this.#lineNo): void {
    if (lineNo === 1 && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    const c = cleanLine(buf.toString('utf8', start, end));
    if (c.hadAnsi && this.#ansiLine === 0) this.#ansiLine = lineNo;
    if (c.hadRedraw && this.#redraws++ === 0) this.#firstRedraw = lineNo;
    this.#sink.line(c.text, lineNo);
  }
}
