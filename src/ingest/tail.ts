import { closeSync, openSync, readSync } from 'node:fs';
import { DiagnosticCollector } from '../core/diagnostic.js';
import type { TextHead } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import { fromBytes } from './read.js';
import { UTF16_BOM_BYTES, type Utf16Encoding } from './utf16.js';

/** What detection looks at of a file's end (as much as of its head). */
const TAIL_BYTES = 64 * 1024;

/**
 * The end of a large file, cleaned like its head and from its first whole line on, for detection:
 * where a benchmark prints its result block at the end of a log that began as a server's. Null
 * when the window holds no line break or looks binary; what cleaning reports is the stream's to say.
 * A UTF-16 file's end (`utf16`, from its byte order mark) is decoded as such.
 */
export function readTail(abs: string, rel: RelPath, size: number, utf16: Utf16Encoding | null = null): TextHead | null {
  // one byte more than the window: a line break there means the window starts on a whole line
  // (a UTF-16 file's: one code unit more, from a code unit's first byte)
  const start = utf16 ? Math.max(UTF16_BOM_BYTES, size - TAIL_BYTES - 2 - ((size - TAIL_BYTES) % 2)) : Math.max(0, size - TAIL_BYTES - 1);
  const bytes = Buffer.alloc(size - start);
  let n = 0;
  const fd = openSync(abs, 'r');
  try {
    n = readSync(fd, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fd);
  }
  let window = utf16 ? Buffer.from(new TextDecoder(utf16, { ignoreBOM: true }).decode(bytes.subarray(0, n)), 'utf8') : bytes.subarray(0, n);
  if (start > 0) {
    const newline = window.indexOf(10);
    if (newline < 0) return null;
    window = window.subarray(newline + 1);
  }
  const source = fromBytes(window, rel, new DiagnosticCollector());
  return source && { path: rel, head: `${source.lines.join('\n')}\n` };
}
