import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DiagnosticCollector, type Diagnostic, type DiagnosticSink } from '../core/diagnostic.js';
import type { FormatId } from '../core/format-ids.js';
import { type Grammar, type LineParser, type TextHead, type TextSource, wantsLine } from '../core/grammar.js';
import type { BenchRecord } from '../core/records.js';
import type { RelPath } from '../core/types.js';
import { type LineSink, streamLines } from '../ingest/line-stream.js';
import { commonSkimPaths, type SkimResult, SkimPaths, skimJsonFile } from '../ingest/json-skim.js';
import { compressionOf, fromBytes, HEAD_CHARS, headOf, readSource } from '../ingest/read.js';
import { readTail } from '../ingest/tail.js';
import { type Utf16Encoding, utf16Encoding } from '../ingest/utf16.js';
import { claimingGrammarsAtEnds, claimingGrammarsOf, holdsResults, lineFilterOf, scoredClaims, wholeSourceClaims } from './claims.js';
import { KEPT_WINDOW_CHARS, KeptLines, type KeptWindow } from './kept-lines.js';
import { remappedSink, remapRecord } from './remap-lines.js';

/** A record together with the grammar that produced it. */
export interface ParsedRecord {
  readonly format: FormatId;
  readonly record: BenchRecord;
}

export type FileStatus = 'parsed' | 'unrecognized' | 'skipped';

/** What happened to one file: every discovered file gets exactly one of these. */
export interface FileReport {
  readonly path: RelPath;
  readonly status: FileStatus;
  readonly formats: readonly FormatId[];
  readonly bytes: number;
  readonly runs: number;
  readonly records: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export interface FileOutcome {
  readonly report: FileReport;
  readonly records: readonly ParsedRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

interface Parsed {
  formats: FormatId[];
  records: ParsedRecord[];
}

const DEFAULTS = Object.freeze({
  /** Files larger than this are streamed when a claiming grammar reads line by line, or skimmed (see skimmedSource). */
  streamAboveBytes: 1024 * 1024,
  headBytes: 1024 * 1024,
  /** A benchmark's output with server lines in it is read whole up to this size, streamed above (see processFileWithin). */
  wholeClientOutputBytes: 64 * 1024 * 1024,
});

/**
 * read → detect → parse for one file. Every grammar that claims the file parses it (a write-up
 * may hold blocks of several formats; each grammar takes only its own). Large files read only by
 * line grammars (server logs) are streamed with an anchor prefilter, in bounded memory, and large
 * result JSON is read without the per-request values its grammars never read. A grammar
 * that throws costs that grammar's records for this file, never the batch.
 */
export function processFile(abs: string, rel: RelPath, regular = true): FileOutcome {
  return processFileWithin(abs, rel, regular, Number.POSITIVE_INFINITY) as FileOutcome;
}

/**
 * processFile for a thread with a small heap (a worker): null, and nothing reported, when the file
 * would have to be read whole and is larger than `maxWholeBytes`. Its text and what is parsed from
 * it could exceed the heap, and a worker that does dies, or takes the process with it when one
 * allocation is larger than what V8 keeps in reserve (a 150 MB line did).
 */
export function processFileWithin(abs: string, rel: RelPath, regular: boolean, maxWholeBytes: number): FileOutcome | null {
  const sink = new DiagnosticCollector();
  if (!regular) return outcome(rel, 0, null, sink);
  let size = 0;
  let head: Buffer;
  try {
    const fd = openSync(abs, 'r');
    try {
      size = fstatSync(fd).size;
      head = Buffer.alloc(Math.min(size, DEFAULTS.headBytes));
      const n = readSync(fd, head, 0, head.length, 0);
      head = head.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    sink.report('ingest/unreadable', { file: rel, line: 1, column: 1 }, e instanceof Error ? e.message.replaceAll(abs, rel) : String(e));
    return outcome(rel, size, null, sink);
  }
  if (size > DEFAULTS.streamAboveBytes) {
    const headSource = fromBytes(head, rel, new DiagnosticCollector());
    if (!headSource) {
      sink.report('ingest/binary-file', { file: rel, line: 1, column: 1 }, compressionOf(head));
      return outcome(rel, size, null, sink);
    }
    const utf16 = utf16Encoding(head);
    const start = headOf(headSource);
    const headClaims = scoredClaims(start);
    // by its head, then by its end (a benchmark's result block printed after a server's log)
    const claims = claimingGrammarsAtEnds(start, readTailQuietly(abs, rel, size, utf16), headClaims);
    if (claims.length === 0) {
      sink.report('detect/unrecognized', { file: rel, line: 1, column: 1 });
      return outcome(rel, size, { formats: [], records: [] }, sink);
    }
    if (claims.some((g) => g.lines)) {
      // a server log (it has line grammars) is streamed; grammars that read whole sources read the
      // lines it keeps. A benchmark's output with server lines in it (a sweep tee'd with its
      // server, trtllm-bench's own logger lines) is read whole while it is not huge, the whole
      // document the context of each block; streamed, its grammars see a window at a time.
      if (size > DEFAULTS.wholeClientOutputBytes || !holdsResults(headClaims)) return outcome(rel, size, streamFile(abs, rel, claims, sink, utf16), sink);
    } else {
      // result JSON with per-request arrays: read without them when its grammars never read them
      const skimmed = skimmedSource(abs, rel, claims, maxWholeBytes, sink);
      if (skimmed) return outcome(rel, size, skimmed.source ? parseSource(skimmed.source, sink, claims) : null, sink);
    }
  }
  if (size > maxWholeBytes) return null;
  // a file that fit in the head is not read a second time
  const source = head.length === size ? fromBytes(head, rel, sink) : readSource(abs, rel, sink);
  return outcome(rel, size, source ? parseSource(source, sink) : null, sink);
}

/** detect → parse for a source already in memory (`claimed`: detected already, on the file it was read from). */
export function parseSource(source: TextSource, sink: DiagnosticSink, claimed: readonly Grammar[] = claimingGrammarsOf(source)): Parsed {
  // as a stream of the file would: what the lines no line grammar wants show (see foreignClaims);
  // without a line grammar, every line beyond what head and tail detection read (a write-up's
  // blocks after a long preamble, a script's output with setup output before and a crash after)
  const byLine = claimed.filter((g) => g.lines);
  const claims = byLine.length > 0 || longerThanEnds(source) ? [...claimed, ...foreignClaimsOf(source, byLine, claimed)] : claimed;
  if (claims.length === 0) sink.report('detect/unrecognized', { file: source.path, line: 1, column: 1 });
  const parsed: Parsed = { formats: claims.map((g) => g.id), records: [] };
  // the line grammars first: the grammars that read whole sources do not see the stats lines
  // they own, as a stream does not keep those for them (see LineParser.line)
  const owned = new Uint8Array(byLine.length > 0 ? source.lines.length : 0);
  const lineRecords = new Map<Grammar, ParsedRecord[]>();
  for (const g of byLine) {
    const lines = g.lines;
    if (!lines) continue;
    const into: Parsed = { formats: [], records: [] };
    guarded(g, source.path, sink, into, () => {
      // the same prefilter as when streaming, so both paths give the same records
      const parser = lines.call(g, source.path, sink);
      source.lines.forEach((text, i) => {
        if (wantsLine(g, text) && parser.line(text, i + 1) === true) owned[i] = 1;
      });
      return parser.finish();
    });
    lineRecords.set(g, into.records);
  }
  const rest = owned.includes(1) ? withoutOwnedLines(source, owned) : null;
  const restSink = rest ? remappedSink(sink, rest.lineOf) : sink;
  for (const g of claims) {
    const done = lineRecords.get(g);
    if (done) for (const r of done) parsed.records.push(r);
    else if (rest) guarded(g, source.path, sink, parsed, () => g.parse(rest.source, restSink).map((r) => remapRecord(r, rest.lineOf)));
    else guarded(g, source.path, sink, parsed, () => g.parse(source, sink));
  }
  return parsed;
}

/** A source without the lines marked in `owned`, and where each of its lines is in the original. */
function withoutOwnedLines(source: TextSource, owned: Uint8Array): { source: TextSource; lineOf: (line: number) => number } {
  const lines: string[] = [];
  const numbers: number[] = [];
  source.lines.forEach((text, i) => {
    if (owned[i] === 1) return;
    lines.push(text);
    numbers.push(i + 1);
  });
  return { source: { path: source.path, lines }, lineOf: (n) => numbers[n - 1] ?? numbers.at(-1) ?? n };
}

/** Passes a streamed line to each claiming grammar that wants it (the stream's filter is their union). */
class ClaimantsSink implements LineSink {
  readonly parsers: readonly { readonly g: Grammar; readonly p: LineParser }[];
  readonly #kept: KeptLines;

  constructor(claims: readonly Grammar[], rel: RelPath, sink: DiagnosticSink, kept: KeptLines) {
    this.parsers = claims.map((g) => ({ g, p: g.lines?.(rel, sink) as LineParser }));
    this.#kept = kept;
  }

  line(text: string, lineNo: number): void {
    let wanted = false;
    let owned = false;
    for (const { g, p } of this.parsers) {
      if (!wantsLine(g, text)) continue;
      wanted = true;
      if (p.line(text, lineNo) === true) owned = true;
    }
    // a stats line is its grammar's alone: not kept, so a busy log's are not what the other grammars
    // read; a line no line grammar wants is what detection reads (see foreignClaims)
    if (!owned) this.#kept.line(text, lineNo, !wanted);
  }
}

/**
 * The grammars that read whole sources, beyond `claims`, that claim the lines of a log no line
 * grammar wants (nor skips), read as a head is: a result block or a command in the middle of a
 * tee'd server log, the server having logged on long after it. A stream asks it of each window's
 * such lines (KeptWindow), a whole read of the same amount at a time.
 */
function foreignClaims(path: RelPath, foreignText: string, claims: readonly Grammar[]): Grammar[] {
  if (foreignText === '') return [];
  return wholeSourceClaims({ path, head: foreignText }).filter((g) => !claims.includes(g));
}

/** foreignClaims of a source read whole, as a stream of it would find them (KEPT_WINDOW_CHARS of those lines at a time). */
function foreignClaimsOf(source: TextSource, byLine: readonly Grammar[], claims: readonly Grammar[]): Grammar[] {
  const found: Grammar[] = [];
  const { skip } = lineFilterOf(byLine);
  let text: string[] = [];
  let chars = 0;
  const detect = () => {
    for (const g of foreignClaims(source.path, text.join('\n'), claims)) if (!found.includes(g)) found.push(g);
    text = [];
    chars = 0;
  };
  for (const line of source.lines) {
    if (skip.some((s) => line.includes(s)) || byLine.some((g) => wantsLine(g, line))) continue;
    // no more of a long line than a head holds (a one-line JSON document of many megabytes)
    const cut = line.length > HEAD_CHARS ? line.slice(0, HEAD_CHARS) : line;
    text.push(cut);
    chars += cut.length + 1;
    if (chars >= KEPT_WINDOW_CHARS) detect();
  }
  detect();
  return found;
}

/** Has the source more than the head and tail that detection reads of it (see claimingGrammarsOf)? */
function longerThanEnds(source: TextSource): boolean {
  let chars = 0;
  for (const line of source.lines) {
    chars += line.length + 1;
    if (chars > 2 * HEAD_CHARS) return true;
  }
  return false;
}

/**
 * Streams a server log to its line grammars. Grammars that read whole sources read the lines the
 * stream keeps for them: all but the access and request-log lines the line grammars skip and the
 * stats lines they read (LineParser.line), a window at a time (KeptLines), numbered as in the
 * file. They are those that claim the file's head or tail, and those that claim the lines no line
 * grammar wanted: a result block printed in the middle of a tee'd server log, the server logging
 * on long after it.
 */
function streamFile(abs: string, rel: RelPath, claims: readonly Grammar[], sink: DiagnosticSink, utf16: Utf16Encoding | null): Parsed {
  const byLine = claims.filter((g) => g.lines);
  /** Whole-source grammars the lines no line grammar wants claimed, in the order found: they read the rest of the file. */
  const found: Grammar[] = [];
  const wholeRecords = new Map<Grammar, Parsed>();
  // a grammar that fails on one window may on the next ones: said once
  const failures = new Set<string>();
  const failureSink: DiagnosticSink = {
    report(code, at, ...args) {
      const key = JSON.stringify([code, args]);
      if (!failures.has(key)) sink.report(code, at, ...args);
      failures.add(key);
    },
  };
  const kept = new KeptLines(rel, (window) => {
    const fresh = foreignClaims(rel, window.foreignText, [...claims, ...found]);
    // of many windows, a grammar reads only those it claims (a debug log's windows are mostly noise)
    const many = window.from > 0 || window.to !== Number.POSITIVE_INFINITY;
    const claimed = [...claims, ...found].filter((g) => !g.lines);
    const head = many && claimed.length > 0 ? { path: rel, head: window.source.lines.join('\n') } : null;
    found.push(...fresh);
    for (const g of [...claimed.filter((c) => !head || claimsQuietly(c, head)), ...fresh]) {
      let into = wholeRecords.get(g);
      if (!into) wholeRecords.set(g, (into = { formats: [], records: [] }));
      const windowSink = ownedBy(window, sink);
      guarded(g, rel, failureSink, into, () => g.parse(window.source, windowSink).flatMap((r) => {
        const record = remapRecord(r, window.lineOf);
        return record.at.line >= window.from && record.at.line < window.to ? [record] : [];
      }));
    }
  });
  const lines = new ClaimantsSink(byLine, rel, sink, kept);
  try {
    // every line the line grammars do not skip reaches the sink: what they want, and what is kept
    streamLines(abs, rel, { anchors: null, skip: lineFilterOf(byLine).skip }, lines, sink, utf16);
  } catch (e) {
    sink.report('ingest/unreadable', { file: rel, line: 1, column: 1 }, e instanceof Error ? e.message.replaceAll(abs, rel) : String(e));
  }
  kept.finish();
  // in the claims' order, as a whole read gives them
  const all = [...claims, ...found];
  const parsed: Parsed = { formats: all.map((g) => g.id), records: [] };
  for (const g of all) {
    const parser = lines.parsers.find((p) => p.g === g)?.p;
    if (parser) guarded(g, rel, sink, parsed, () => parser.finish());
    else for (const r of wholeRecords.get(g)?.records ?? []) parsed.records.push(r);
  }
  return parsed;
}

/** Does `g` claim this text (a detector that throws does not)? */
function claimsQuietly(g: Grammar, head: TextHead): boolean {
  try {
    return g.detect(head).score > 0;
  } catch {
    return false;
  }
}

/** The diagnostics of a window's parse that it owns (see KeptWindow), at their lines in the file. */
function ownedBy(window: KeptWindow, sink: DiagnosticSink): DiagnosticSink {
  return {
    report(code, at, ...args) {
      const line = window.lineOf(at.line);
      if (line >= window.from && line < window.to) sink.report(code, { ...at, line }, ...args);
    },
  };
}

/**
 * A skim that keeps more than this gives up and the file is read whole, as it was before skims:
 * what it kept is garbage by then, and the whole read holds the file's size again.
 */
const SKIM_MAX_KEPT_BYTES = 64 * 1024 * 1024;

/**
 * A large JSON file read without the values its claimants all list as never read (Grammar.skim),
 * or null when it is to be read like other files: no such values, a file the skim leaves to a whole
 * read (see SkimResult), or more left than this thread reads whole (`maxWholeBytes`) or than
 * SKIM_MAX_KEPT_BYTES.
 */
function skimmedSource(abs: string, rel: RelPath, claims: readonly Grammar[], maxWholeBytes: number, sink: DiagnosticSink): { source: TextSource | null } | null {
  const paths = skimPathsOf(claims);
  if (paths === null) return null;
  let skimmed: SkimResult;
  try {
    skimmed = skimJsonFile(abs, paths, Math.min(maxWholeBytes, SKIM_MAX_KEPT_BYTES));
  } catch {
    // the whole read that follows reports why
    return null;
  }
  return skimmed.kind === 'skimmed' ? { source: fromBytes(skimmed.bytes, rel, sink) } : null;
}

/** The values no claimant reads (null: none, or a claimant that does not say). */
export function skimPathsOf(claims: readonly Grammar[]): SkimPaths | null {
  return SkimPaths.of(commonSkimPaths(claims.map((g) => g.skim)) ?? []);
}

/** The last 64 KiB, for detection, or null when they cannot be read (the stream that follows reports why). */
function readTailQuietly(abs: string, rel: RelPath, size: number, utf16: Utf16Encoding | null): TextHead | null {
  try {
    return readTail(abs, rel, size, utf16);
  } catch {
    return null;
  }
}

function guarded(g: Grammar, rel: RelPath, sink: DiagnosticSink, into: Parsed, work: () => BenchRecord[]): void {
  try {
    for (const record of work()) into.records.push({ format: g.id, record });
  } catch (e) {
    sink.report('parse/grammar-crash', { file: rel, line: 1, column: 1 }, g.id, e instanceof Error ? e.message : String(e));
  }
}

/** Wraps a file's parse into its report, counting what was found. */
function outcome(rel: RelPath, bytes: number, parsed: Parsed | null, sink: DiagnosticCollector): FileOutcome {
  const diagnostics = sink.list();
  const records = parsed?.records ?? [];
  const claimed = parsed?.formats ?? [];
  // Report the grammars that found something; a file claimed but yielding nothing keeps its claims.
  const producing = claimed.filter((f) => records.some((r) => r.format === f));
  const formats = producing.length > 0 ? producing : claimed;
  const status: FileStatus = parsed === null ? 'skipped' : formats.length === 0 ? 'unrecognized' : 'parsed';
  let runs = 0;
  // a series counts its stats lines: a file's record count does not depend on how they are stored
  let count = 0;
  for (const r of records) {
    if (r.record.kind === 'run') runs++;
    count += r.record.kind === 'timeline' ? r.record.series.length : 1;
  }
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
  }
  return {
    report: { path: rel, status, formats, bytes, runs, records: count, errors, warnings, infos: diagnostics.length - errors - warnings },
    records,
    diagnostics,
  };
}
