import { closeSync, openSync, readSync } from 'node:fs';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';

const DEFAULTS = Object.freeze({
  chunkBytes: 64 * 1024,
  /** Longer lines keep only their head (a 1 GB one-line file must not become a 1 GB string). */
  maxLineBytes: 1024 * 1024,
});

export interface StreamStats {
  readonly lines: number;
  readonly bytes: number;
}

/**
 * Reads a file line by line in fixed-size chunks, so memory does not grow with the file. When
 * `anchors` are given, a line containing none of them (as raw bytes) is counted but never decoded:
 * server logs are mostly access and request lines, and skipping them is what makes large folders
 * cost about what `grep` costs. Lines passed on are cleaned like whole-file reads (CR, tqdm
 * redraws, ANSI), with their original 1-based numbers.
 */
export function streamLines(
  abs: string,
  rel: RelPath,
  anchors: readonly string[] | null,
  onLine: (text: string, lineNo: number) => void,
  sink: DiagnosticSink,
): StreamStats {
  const needles = anchors?.map((a) => Buffer.from(a, 'utf8')) ?? null;
  const fd = openSync(abs, 'r');
  const chunk = Buffer.allocUnsafe(DEFAULTS.chunkBytes);
  let carry: Buffer | null = null;
  let carryTruncated = false;
  let lineNo = 0;
  let bytes = 0;
  let ansiLine = 0;
  let redraws = 0;
  let firstRedraw = 0;
  const finder = needles ? new AnchorFinder(needles) : null;
  const emit = (buf: Buffer, start: number, end: number, truncated: boolean): void => {
    lineNo++;
    if (lineNo === 1 && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    if (truncated) sink.report('read/long-line', { file: rel, line: lineNo, column: 1 }, end - start);
    if (finder && !finder.within(buf, start, end)) return;
    const c = cleanLine(buf.toString('utf8', start, end));
    if (c.hadAnsi && ansiLine === 0) ansiLine = lineNo;
    if (c.hadRedraw && redraws++ === 0) firstRedraw = lineNo;
    onLine(c.text, lineNo);
  };
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      bytes += n;
      finder?.reset();
      let pos = 0;
      while (pos < n) {
        const nl = chunk.indexOf(10, pos);
        const end = nl < 0 || nl >= n ? n : nl;
        if (carry !== null || nl < 0 || nl >= n) {
          // a line spanning chunks: keep at most maxLineBytes of it
          const room = DEFAULTS.maxLineBytes - (carry?.length ?? 0);
          const piece = chunk.subarray(pos, pos + Math.max(0, Math.min(end - pos, room)));
          if (end - pos > room) carryTruncated = true;
          carry = carry ? Buffer.concat([carry, piece]) : Buffer.from(piece);
          if (nl >= 0 && nl < n) {
            emit(carry, 0, carry.length, carryTruncated);
            carry = null;
            carryTruncated = false;
          }
        } else if (end - pos > DEFAULTS.maxLineBytes) {
          emit(chunk, pos, pos + DEFAULTS.maxLineBytes, true);
        } else {
          emit(chunk, pos, end, false);
        }
        pos = end + 1;
      }
    }
    if (carry !== null && carry.length > 0) emit(carry, 0, carry.length, carryTruncated);
  } finally {
    closeSync(fd);
  }
  if (ansiLine > 0) sink.report('read/ansi-stripped', { file: rel, line: ansiLine, column: 1 });
  if (redraws > 0) sink.report('read/carriage-returns', { file: rel, line: firstRedraw, column: 1 }, redraws);
  return { lines: lineNo, bytes };
}

/**
 * Answers "does [start, end) contain an anchor?" for lines visited in order. Each buffer is searched
 * once for all anchors together (one regular expression over its bytes read as latin1, so positions
 * are byte offsets), remembering the next match, so the cost is one pass per chunk whatever the
 * number of anchors.
 */
class AnchorFinder {
  readonly #needles: readonly Buffer[];
  readonly #any: RegExp;
  #buf: Buffer | null = null;
  #text = '';
  /** Byte offset of the next match at or after the last line asked about; -1 when none is left. */
  #next = -2;
  #nextEnd = 0;

  constructor(needles: readonly Buffer[]) {
    this.#needles = needles;
    const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.#any = new RegExp(needles.map((n) => escape(n.toString('latin1'))).join('|'), 'g');
  }

  /** Forgets cached positions (the chunk buffer was refilled). */
  reset(): void {
    this.#buf = null;
  }

  within(buf: Buffer, start: number, end: number): boolean {
    if (this.#needles.length === 0) return false;
    if (buf !== this.#buf) {
      this.#buf = buf;
      this.#text = buf.toString('latin1');
      this.#next = -2;
    }
    if (this.#next === -1) return false; // no further occurrence in this buffer
    if (this.#next < start) {
      this.#any.lastIndex = start;
      const m = this.#any.exec(this.#text);
      this.#next = m ? m.index : -1;
      this.#nextEnd = m ? m.index + m[0].length : 0;
      if (!m) return false;
    }
    if (this.#next >= end) return false;
    if (this.#nextEnd <= end) return true;
    // the first match runs past a cut line's end: another anchor may still fit, check each one
    return this.#needles.some((n) => {
      const at = buf.indexOf(n, start);
      return at >= 0 && at + n.length <= end;
    });
  }
}
