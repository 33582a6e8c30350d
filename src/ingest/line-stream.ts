import { closeSync, openSync, readSync } from 'node:fs';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';
import { ChunkLineFilter, type LineFilterSpec } from './line-filter.js';

const DEFAULTS = Object.freeze({
  chunkBytes: 64 * 1024,
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
 * Reads a file line by line in fixed-size chunks, so memory does not grow with the file. With a
 * `filter`, a line it does not want (no anchor, or a skip substring such as an access-log line)
 * is counted but never decoded: server logs are mostly access and request lines, and skipping them
 * cheaply is what makes large folders cost about what `grep` costs. Lines passed on are cleaned
 * like whole-file reads (CR, tqdm redraws, ANSI), with their original 1-based numbers.
 */
export function streamLines(abs: string, rel: RelPath, filter: LineFilterSpec | null, sink: LineSink, diagnostics: DiagnosticSink): StreamStats {
  return new LineStream(rel, filter, sink, diagnostics).read(abs);
}

/**
 * One file's stream. The per-line work is methods of one class, called on one sink object, so the
 * optimizing compiler sees the same call targets for every file (a closure per file would be a new
 * target each time and undo the optimized loop on every file of a folder).
 */
class LineStream {
  readonly #rel: RelPath;
  readonly #filter: ChunkLineFilter | null;
  readonly #sink: LineSink;
  readonly #diagnostics: DiagnosticSink;
  #lineNo = 0;
  #ansiLine = 0;
  #redraws = 0;
  #firstRedraw = 0;

  constructor(rel: RelPath, filter: LineFilterSpec | null, sink: LineSink, diagnostics: DiagnosticSink) {
    this.#rel = rel;
    this.#filter = filter ? new ChunkLineFilter(filter) : null;
    this.#sink = sink;
    this.#diagnostics = diagnostics;
  }

  read(abs: string): StreamStats {
    const fd = openSync(abs, 'r');
    const chunk = Buffer.allocUnsafe(DEFAULTS.chunkBytes);
    const filter = this.#filter;
    let carry: Buffer | null = null;
    let carryTruncated = false;
    let bytes = 0;
    try {
      for (;;) {
        const n = readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        bytes += n;
        // with a filter the chunk is read as latin1 anyway: its newlines are found in that string
        const text = filter ? chunk.toString('latin1', 0, n) : null;
        if (filter) filter.load(text as string);
        let pos = 0;
        while (pos < n) {
          let nl = text !== null ? text.indexOf('\n', pos) : chunk.indexOf(10, pos);
          if (nl >= n) nl = -1;
          const end = nl < 0 ? n : nl;
          if (carry === null && nl >= 0) {
            this.#emit(chunk, pos, end, false, true);
          } else {
            // a line spanning chunks: keep at most maxLineBytes of it
            const room = DEFAULTS.maxLineBytes - (carry?.length ?? 0);
            const piece = chunk.subarray(pos, pos + Math.max(0, Math.min(end - pos, room)));
            if (end - pos > room) carryTruncated = true;
            carry = carry ? Buffer.concat([carry, piece]) : Buffer.from(piece);
            if (nl >= 0) {
              this.#emit(carry, 0, carry.length, carryTruncated, false);
              carry = null;
              carryTruncated = false;
            }
          }
          pos = end + 1;
        }
      }
      if (carry !== null && carry.length > 0) this.#emit(carry, 0, carry.length, carryTruncated, false);
    } finally {
      closeSync(fd);
    }
    const at = (line: number) => ({ file: this.#rel, line, column: 1 });
    if (this.#ansiLine > 0) this.#diagnostics.report('read/ansi-stripped', at(this.#ansiLine));
    if (this.#redraws > 0) this.#diagnostics.report('read/carriage-returns', at(this.#firstRedraw), this.#redraws);
    return { lines: this.#lineNo, bytes };
  }

  #emit(buf: Buffer, start: number, end: number, truncated: boolean, inChunk: boolean): void {
    const lineNo = ++this.#lineNo;
    if (lineNo === 1 && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    if (truncated) this.#diagnostics.report('read/long-line', { file: this.#rel, line: lineNo, column: 1 }, end - start);
    const filter = this.#filter;
    if (filter !== null && !(inChunk ? filter.accepts(start, end) : filter.acceptsLine(buf.toString('latin1', start, end)))) return;
    const c = cleanLine(buf.toString('utf8', start, end));
    if (c.hadAnsi && this.#ansiLine === 0) this.#ansiLine = lineNo;
    if (c.hadRedraw && this.#redraws++ === 0) this.#firstRedraw = lineNo;
    this.#sink.line(c.text, lineNo);
  }
}
