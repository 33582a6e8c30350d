import { stripEmbedding, withoutWrapper } from '../../../src/parse/embedding.js';
import { type ParsedNumber, readNumber } from '../../../src/parse/values.js';
import { overwroteOutput } from '../interleaved-line.js';
import { BARE_LABEL, BLOCK_HEADER, FOOTER, KV_LINE, LOG_LINE, SECTION_RULE } from './tokens.js';

/**
 * A benchmark client and a server that write one file (both redirected to one log, or one `tee`)
 * interleave at their writes. Python writes a client's stdout 8 KiB at a time when it is not a
 * terminal, so a server's log line can land in the middle of a line of a result block:
 *
 *     Total input tokens:                      1638(APIServer pid=41) INFO 06-03 09:16:01 [loggers.py:123] …
 *     (maybe more whole server lines)
 *     40
 *
 * The client's line is put back together: its head (`Total input tokens: … 1638`) joined to its
 * rest (`40`), at the rest's line, and the server's part left where it began, a log line the block
 * skips like any other. Only inside a result block (a header above, nothing but block and log lines
 * between; or the block's header itself), only across whole log lines, and only when the joined
 * line is a block line whose value is one word: a progress bar or any other text between the two parts leaves the line as it is
 * (read as a bad value, the block cut short, both reported).
 *
 * The client's own progress bar (stderr, written at once) can land there too, in one process that
 * runs benchmark after benchmark: `Total input tokens: 1638`, the bar's `\r` redraws, its closing
 * line break, then `40`. The `\r` clean-up keeps the bar, as a terminal shows it; the head it drew
 * over (TextSource.overwritten) is joined to the rest the same way, and the bar left on its line.
 */
export interface Splice {
  /** 1-based line where the server's output began in the middle of the client's line. */
  readonly line: number;
  /** 1-based line holding the rest of the client's line, where the joined line now stands. */
  readonly rest: number;
}

/**
 * Where a server's log line starts: a process prefix (vLLM V1's, Ray's with its address), vLLM's
 * level and stamp, SGLang's and TensorRT-LLM's stamps, uvicorn's access line without a prefix
 * (vLLM before V1).
 */
const LOG_START =
  /\((?:[\w ]{1,40}?(?: rank=\d+)? )?pid=\d+(?:, ip=[\w.:]{1,45})?\) |(?:INFO|WARNING|DEBUG|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d|\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|\[\d\d\/\d\d\/\d{4}-\d\d:\d\d:\d\d\]|(?:INFO|WARNING|ERROR): {2,}\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}:\d+ - "/;
/** What every LOG_START holds (a pid, a clock, an access line's address): one cheap search that most lines of a block fail. */
const MAY_START_LOG = /pid=|\d:\d\d:\d|: {2,}\d/;
const LOG_START_HERE = new RegExp(`^(?:${LOG_START.source})`);

/**
 * readNumber for a value of a block or its preamble: not a number when a server's log line begins
 * right after it (server output split the line, and it could not be put back together): the value
 * before it may be cut short (`16384` of `163840`), never one to read.
 */
export function readBlockNumber(text: string): ParsedNumber {
  const v = readNumber(text);
  return v.ok && LOG_START_HERE.test(v.rest) ? { value: null, ok: false, rest: v.rest } : v;
}

/** Whether a server's log line begins anywhere in `text` (a text value's first word may be cut short before it). */
export function holdsServerLog(text: string): boolean {
  return LOG_START.test(text);
}

/** uvicorn's access lines, with or without vLLM's process prefix: label/value lines a block skips as log lines (fields.ts). */
const ACCESS_LINE = /^(?:\(\w+ pid=\d+\)\s*)?(?:INFO|WARNING|ERROR):\s+\S/;
/** A joined line that is a block line with a one-word value (or none): what a split line of a block is. */
const ONE_WORD_VALUE = /^[^:]{1,100}?:\s+\S+$/;

/** A whole line of server output, which a block skips. */
export function isLogLine(text: string): boolean {
  return LOG_LINE.test(text) || ACCESS_LINE.test(text);
}

/** A line a block goes on through (the parser's block rule). */
function continuesBlock(text: string): boolean {
  return text !== '' && !FOOTER.test(text) && (SECTION_RULE.test(text) || isLogLine(text) || BARE_LABEL.test(text) || KV_LINE.test(text));
}

/**
 * Lines looked through for the rest of a client's line and above it for its block's header, and
 * lines examined per source: a client's flushes are milliseconds apart (a few server lines between),
 * and a hostile source of such lines costs a bounded amount.
 */
const MAX_BRIDGE_LINES = 500;
const MAX_BLOCK_LINES = 500;
const MAX_CANDIDATES = 2000;

/**
 * `lines` with every client line split by server output put back together (the same array when
 * there is none). `overwritten` (TextSource.overwritten): the head of a client's line that its own
 * progress bar was drawn over (the `\r` clean-up kept the bar), put back together with its rest
 * the same way; the bar stays where it was.
 */
export function unsplice(lines: readonly string[], overwritten?: ReadonlyMap<number, string>): { readonly lines: readonly string[]; readonly splices: readonly Splice[] } {
  // (typed so: `join` below sets it, which narrowing by the initializer would not see)
  let out = null as string[] | null;
  const splices: Splice[] = [];
  const join = (i: number, head: string): boolean => {
    const j = restOf(out ?? lines, i);
    if (j < 0 || splices.some((s) => s.rest === j + 1)) return false;
    const joined = head + withoutWrapper((out ?? lines)[j] as string);
    const text = stripEmbedding(joined);
    const header = BLOCK_HEADER.test(text);
    const blockLine = ONE_WORD_VALUE.test(text) || BARE_LABEL.test(text) || SECTION_RULE.test(text) || FOOTER.test(text);
    if (!header && !(blockLine && inBlock(out ?? lines, i))) return false;
    out ??= [...lines];
    out[j] = joined;
    splices.push({ line: i + 1, rest: j + 1 });
    return true;
  };
  let candidates = 0;
  for (let i = 0; i < lines.length && candidates < MAX_CANDIDATES; i++) {
    const line = (out ?? lines)[i] as string;
    if (!MAY_START_LOG.test(line)) continue;
    const m = LOG_START.exec(line);
    // (a whole server line: its process prefix before its level and stamp is no client's line)
    if (m === null || m.index === 0 || isLogLine(stripEmbedding(line))) continue;
    candidates++;
    const head = line.slice(0, m.index);
    const server = line.slice(m.index);
    if (stripEmbedding(head) === '' || !isLogLine(server)) continue;
    if (join(i, head) && out !== null) out[i] = server;
  }
  for (const [i, head] of overwritten ?? []) {
    if (candidates++ >= MAX_CANDIDATES) break;
    if (i < lines.length && overwroteOutput(head)) join(i, head);
  }
  splices.sort((a, b) => a.line - b.line);
  return { lines: out ?? lines, splices };
}

/** The index of the first line after `i` that is not a whole log line, or -1 (none near enough). */
function restOf(lines: readonly string[], i: number): number {
  const last = Math.min(lines.length - 1, i + MAX_BRIDGE_LINES);
  for (let j = i + 1; j <= last; j++) if (!isLogLine(stripEmbedding(lines[j] as string))) return j;
  return -1;
}

/** Whether line `i` continues a result block: its header above it, only lines a block goes on through between. */
function inBlock(lines: readonly string[], i: number): boolean {
  const first = Math.max(0, i - MAX_BLOCK_LINES);
  for (let k = i - 1; k >= first; k--) {
    const text = stripEmbedding(lines[k] as string);
    if (BLOCK_HEADER.test(text)) return true;
    if (!continuesBlock(text)) return false;
  }
  return false;
}
