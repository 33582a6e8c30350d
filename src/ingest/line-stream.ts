import { closeSync, openSync, readSync } from 'node:fs';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { RelPath } from '../core/types.js';
import { cleanLine } from './clean-line.js';

const DEFAULTS = Object.freeze({
  chunkBytes: 4 * 1024 * 1024,
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
 * Answers "does [start, end) contain an anchor?" for lines visited in order, remembering each
 * anchor's next occurrence in the chunk so every byte is searched once per anchor, not once per line.
 */
class AnchorFinder {
  readonly #needles: readonly Buffer[];
  #buf: Buffer | null = null;
  readonly #next: number[];

  constructor(needles: readonly Buffer[]) {
    this.#needles = needles;
    this.#next = needles.map(() => -2);
  }

  /** Forgets cached positions (the chunk buffer was refilled). */
  reset(): void {
    this.#buf = null;
  }

  within(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.#buf) {
      this.#buf = buf;
      this.#next.fill(-2);
    }
    for (let k = 0; k < this.#needles.length; k++) {
      const needle = this.#needles[k] as Buffer;
      let at = this.#next[k] as number;
      if (at === -1) continue; // no further occurrence in this buffer
      if (at < start) {
        at = buf.indexOf(needle, start);
        this.#next[k] = at;
      }
      if (at >= 0 && at + needle.length <= end) return true;
    }
    return false;
  }
}
