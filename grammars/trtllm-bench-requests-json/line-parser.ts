import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { LineParser } from '../../src/core/grammar.js';
import type { RelPath } from '../../src/core/types.js';
import { kindOpenedBy, type RequestFileKind } from './kinds.js';

/**
 * A streamed line longer than this may be only the head the stream kept of it (`maxLineBytes` in
 * src/ingest/line-stream.ts, which says so with `read/long-line`): its end is not the file's, so
 * it says nothing of a cut. The one-line layout of `--request_json` reaches it past a few
 * thousand requests.
 */
const STREAMED_LINE_HEAD_CHARS = 1024 * 1024;

/**
 * Accounts for a per-request file without reading it: one info at its first line saying what it
 * is, and a warning when its last line is not the closing bracket (a run killed while the file
 * was written). Every line is taken (so no other grammar reads generated text as a log), but only
 * its first and last characters are looked at: memory stays flat however many requests it holds.
 */
export function requestFileLineParser(path: RelPath, sink: DiagnosticSink): LineParser {
  let kind: RequestFileKind | null = null;
  let firstLine = 0;
  let lastLine = 0;
  /** The last non-blank character of the last non-blank line ('' when that line may be cut by the stream). */
  let lastChar = '';
  return {
    line(text, lineNo) {
      const end = lastNonBlank(text);
      if (end < 0) return true;
      if (firstLine === 0) {
        firstLine = lineNo;
        kind = kindOpenedBy(text.trimStart()[0]);
      }
      lastLine = lineNo;
      lastChar = text.length >= STREAMED_LINE_HEAD_CHARS ? '' : (text[end] as string);
      return true;
    },
    finish() {
      if (kind === null) return [];
      sink.report('table/ignored-block', { file: path, line: firstLine, column: 1 }, kind.what);
      if (lastChar !== '' && lastChar !== kind.closes) {
        sink.report('json/syntax', { file: path, line: lastLine, column: 1 }, `the ${kind.option} file ends before its closing "${kind.closes}" (cut short while it was written)`);
      }
      return [];
    },
  };
}

/** Index of the last character that is not blank; -1 on a blank line. */
function lastNonBlank(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i;
}
