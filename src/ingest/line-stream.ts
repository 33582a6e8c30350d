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

/**
 * Reads a file line by line in fixed-size chunks, so memory does not grow with the file. With a
 * `filter`, a line it does not want (no anchor, or a skip substring such as an access-log line)
 * is counted but never decoded: server logs are mostly access and request lines, and skipping them
 * cheaply is what makes large folders cost about what `grep` costs. Lines passed on are cleaned
 * like whole-file reads (CR, tqdm redraws, ANSI), with their original 1-based numbers.
 */
export function streamLines(
  abs: string,
  rel: RelPath,
  filter: LineFilterSpec | null,
  onLine: (text: string, lineNo: number) => void,
  sink: DiagnosticSink,
): StreamStats {
  const fd = openSync(abs, 'r');
  const chunk = Buffer.allocUnsafe(DEFAULTS.chunkBytes);
  let carry: Buffer | null = null;
  let carryTruncated = false;
  let lineNo = 0;
  let bytes = 0;
  let ansiLine = 0;
  let redraws = 0;
  let firstRedraw = 0;
  const chooser = filter ? new ChunkLineFilter(filter) : null;
  const emit = (buf: Buffer, start: number, end: number, truncated: boolean, inChunk: boolean): void => {
    lineNo++;
    if (lineNo === 1 && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    if (truncated) sink.report('read/long-line', { file: rel, line: lineNo, column: 1 }, end - start);
    if (chooser && !(inChunk ? chooser.accepts(start, end) : chooser.acceptsLine(buf.toString('latin1', start, end)))) return;
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
      // with a filter the chunk is read as latin1 anyway: its newlines are found in that string
      const text = chooser ? chunk.toString('latin1', 0, n) : null;
      chooser?.load(text as string);
      let pos = 0;
      while (pos < n) {
        let nl = text !== null ? text.indexOf('\n', pos) : chunk.indexOf(10, pos);
        if (nl >= n) nl = -1;
        const end = nl < 0 ? n : nl;
        if (carry !== null || nl < 0) {
          // a line spanning chunks: keep at most maxLineBytes of it
          const room = DEFAULTS.maxLineBytes - (carry?.length ?? 0);
          const piece = chunk.subarray(pos, pos + Math.max(0, Math.min(end - pos, room)));
          if (end - pos > room) carryTruncated = true;
          carry = carry ? Buffer.concat([carry, piece]) : Buffer.from(piece);
          if (nl >= 0) {
            emit(carry, 0, carry.length, carryTruncated, false);
            carry = null;
            carryTruncated = false;
          }
        } else if (end - pos > DEFAULTS.maxLineBytes) {
          emit(chunk, pos, pos + DEFAULTS.maxLineBytes, true, true);
        } else {
          emit(chunk, pos, end, false, true);
        }
        pos = end + 1;
      }
    }
    if (carry !== null && carry.length > 0) emit(carry, 0, carry.length, carryTruncated, false);
  } finally {
    closeSync(fd);
  }
  if (ansiLine > 0) sink.report('read/ansi-stripped', { file: rel, line: ansiLine, column: 1 });
  if (redraws > 0) sink.report('read/carriage-returns', { file: rel, line: firstRedraw, column: 1 }, redraws);
  return { lines: lineNo, bytes };
}
