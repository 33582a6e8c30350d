import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DiagnosticCollector, type Diagnostic, type DiagnosticSink } from '../core/diagnostic.js';
import type { FormatId } from '../core/format-ids.js';
import type { BenchRecord } from '../core/records.js';
import { type Grammar, type TextHead, type TextSource, wantsLine } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import { commonSkimPaths, type SkimResult, SkimPaths, skimJsonFile, skimJsonInput } from '../ingest/json-skim.js';
import { captureView, isCapture, withoutCapturePrefix } from '../ingest/capture-prefix.js';
import { unquoted } from '../ingest/markdown-quote.js';
import { type Excerpts, excerptsOf } from '../ingest/excerpts.js';
import { withoutWarningCode } from '../ingest/python-warnings.js';
import { detectionSource, fromBytes, headOf, readSource, reportBinary } from '../ingest/read.js';
import { GUNZIP_MAX_BYTES, gunzipFile, isGzip, MAX_DEFLATE_RATIO, statedGunzipSize } from '../ingest/gunzip.js';
import { GunzipInput, gunzipText } from '../ingest/gunzip-stream.js';
import { readTail } from '../ingest/tail.js';
import { type Utf16Encoding, utf16Encoding } from '../ingest/utf16.js';
import { claimingGrammarsAtEnds, claimingGrammarsOf, holdsResults, scoredClaims } from './claims.js';
import { foreignClaimsOf, longerThanEnds } from './foreign-claims.js';
import { CUT_LINE_VALUES, type CutLine, cutLineOf, lastTokenOf, lineReadsCutToken, withoutCutToken } from './cut-line.js';
import { guarded, type Parsed, type ParsedRecord } from './parsed.js';
import { remappedSink, remapRecord, withoutLines } from '../core/remap-lines.js';
import { streamFile } from './stream-file.js';

export type { ParsedRecord } from './parsed.js';

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
  if (isGzip(head)) return gunzippedOutcome(abs, rel, size, maxWholeBytes, sink);
  if (size > DEFAULTS.streamAboveBytes) {
    const headSource = detectionSource(head, rel);
    if (!headSource) {
      reportBinary(sink, rel, head);
      return outcome(rel, size, null, sink);
    }
    const utf16 = utf16Encoding(head);
    const capture = isCapture(headSource.lines);
    const start = headOf(capture ? captureView(headSource, 'bare') : headSource);
    const headClaims = scoredClaims(start);
    // by its head, then by its end (a benchmark's result block printed after a server's log)
    const claims = claimingGrammarsAtEnds(start, bareTail(readTailQuietly(abs, rel, size, utf16), capture), headClaims);
    if (claims.length === 0) {
      // a tail or grep summary of other files, whose head no grammar knows with the prefixes: read whole below
      if (excerptsOf(headSource) === null) {
        sink.report('detect/unrecognized', { file: rel, line: 1, column: 1 });
        return outcome(rel, size, { formats: [], records: [] }, sink);
      }
    } else if (claims.some((g) => g.lines)) {
      // a server log (it has line grammars) is streamed; grammars that read whole sources read the
      // lines it keeps. A benchmark's output with server lines in it (a sweep tee'd with its
      // server, trtllm-bench's own logger lines) is read whole while it is not huge, the whole
      // document the context of each block; streamed, its grammars see a window at a time.
      if (size > DEFAULTS.wholeClientOutputBytes || !holdsResults(headClaims)) return outcome(rel, size, streamFile(abs, rel, claims, sink, { gzip: false, utf16 }, capture), sink);
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

/**
 * A gzip-compressed file, read as its text: whole up to GUNZIP_MAX_BYTES (null in a thread that
 * reads less than that whole: the main thread reads it then); a larger server log streamed, in
 * bounded memory, like a plain one; a cut or damaged file up to the damage.
 */
function gunzippedOutcome(abs: string, rel: RelPath, size: number, maxWholeBytes: number, sink: DiagnosticCollector): FileOutcome | null {
  const at = { file: rel, line: 1, column: 1 };
  const limit = Math.min(maxWholeBytes, GUNZIP_MAX_BYTES);
  try {
    const stated = statedGunzipSize(abs, size);
    // a cut file's last bytes are no trailer: a size its data could not hold says nothing
    const plausible = stated <= size * MAX_DEFLATE_RATIO;
    // a worker leaves to the main thread what it would have to decompress to find it too large
    if (plausible && stated > limit && stated <= GUNZIP_MAX_BYTES) return null;
    if (!plausible || stated <= limit) {
      const whole = gunzipFile(abs, size, limit);
      if (whole.kind === 'text' || whole.kind === 'cut') return gunzippedTextOutcome(rel, size, whole.bytes, whole.kind === 'cut' ? whole.reason : null, false, sink);
      // more text than the trailer said (it states the size modulo 4 GiB), or a damaged file
    }
    return gunzipStreamedOutcome(abs, rel, size, limit, sink);
  } catch (e) {
    sink.report('ingest/unreadable', at, e instanceof Error ? e.message.replaceAll(abs, rel) : String(e));
    return outcome(rel, size, null, sink);
  }
}

/**
 * A gzip file decompressed as a stream (see gunzippedOutcome): detected by its head; a server log
 * streamed to its grammars; anything else read whole up to `limit` (null in a worker when larger).
 */
function gunzipStreamedOutcome(abs: string, rel: RelPath, size: number, limit: number, sink: DiagnosticCollector): FileOutcome | null {
  const at = { file: rel, line: 1, column: 1 };
  const head = gunzipText(abs, DEFAULTS.headBytes);
  if (head.bytes.length === 0) {
    sink.report('ingest/gzip-unreadable', at, head.failure ?? 'no data');
    return outcome(rel, size, null, sink);
  }
  const headSource = detectionSource(head.bytes, rel);
  if (!headSource) {
    reportBinary(sink, rel, head.bytes);
    reportHeadDamage(rel, head, sink);
    return outcome(rel, size, null, sink);
  }
  const capture = isCapture(headSource.lines);
  const headClaims = scoredClaims(headOf(capture ? captureView(headSource, 'bare') : headSource));
  const claims = headClaims.map((c) => c.g);
  if (claims.length === 0) {
    sink.report('detect/unrecognized', at);
    reportHeadDamage(rel, head, sink);
    return outcome(rel, size, { formats: [], records: [] }, sink);
  }
  const streamed = () => outcome(rel, size, streamFile(abs, rel, claims, sink, { gzip: true, utf16: utf16Encoding(head.bytes) }, capture), sink);
  const byLine = claims.some((g) => g.lines);
  // as a plain file: a benchmark's output with server lines in it is read whole while it can be
  if (byLine && !holdsResults(headClaims)) return streamed();
  // and result JSON with per-request arrays without them
  const skimmed = byLine ? null : gunzipSkimmed(abs, rel, claims, limit, sink);
  if (skimmed) return outcome(rel, size, parseSource(skimmed, sink, claims), sink);
  const text = gunzipText(abs, limit);
  if (text.more) {
    if (byLine) return streamed();
    if (limit < GUNZIP_MAX_BYTES) return null;
    sink.report('ingest/gzip-too-large', at, GUNZIP_MAX_BYTES / 1024 / 1024);
    return outcome(rel, size, null, sink);
  }
  return gunzippedTextOutcome(rel, size, text.bytes, text.failure, text.damaged, sink);
}

/**
 * What decompressing a gzip file's head found wrong, when nothing more of it is read: damage can
 * be what made it unrecognizable, and is said as it would be of a file that is read.
 */
function reportHeadDamage(rel: RelPath, head: ReturnType<typeof gunzipText>, sink: DiagnosticSink): void {
  const at = { file: rel, line: 1, column: 1 };
  if (head.damaged) sink.report('ingest/gzip-damaged', at);
  if (head.failure !== null) sink.report('ingest/gzip-cut', { ...at, line: Math.max(1, head.bytes.toString('utf8').split('\n').length) }, head.failure);
}

/**
 * A gzip file's JSON without the values its grammars never read (see skimmedSource), decompressed
 * as it is skimmed; null when it is to be read otherwise.
 */
function gunzipSkimmed(abs: string, rel: RelPath, claims: readonly Grammar[], limit: number, sink: DiagnosticSink): TextSource | null {
  const paths = skimPathsOf(claims);
  if (paths === null) return null;
  const fd = openSync(abs, 'r');
  try {
    const input = new GunzipInput(fd);
    const skimmed = skimJsonInput(input, paths, Math.min(limit, SKIM_MAX_KEPT_BYTES));
    if (skimmed.kind !== 'skimmed') return null;
    const at = { file: rel, line: 1, column: 1 };
    sink.report('ingest/gunzipped', at, input.textBytes);
    if (input.damaged) sink.report('ingest/gzip-damaged', at);
    const source = fromBytes(skimmed.bytes, rel, sink);
    if (source && input.failure !== null) sink.report('ingest/gzip-cut', { ...at, line: Math.max(1, source.lines.length) }, input.failure);
    return source;
  } finally {
    closeSync(fd);
  }
}

/** The text of a gzip file, read whole: `stop` says why it stops early, `damaged` that it fails its check. */
function gunzippedTextOutcome(rel: RelPath, size: number, bytes: Buffer, stop: string | null, damaged: boolean, sink: DiagnosticCollector): FileOutcome {
  const at = { file: rel, line: 1, column: 1 };
  sink.report('ingest/gunzipped', at, bytes.length);
  if (damaged) sink.report('ingest/gzip-damaged', at);
  const source = fromBytes(bytes, rel, sink);
  if (source && stop !== null) sink.report('ingest/gzip-cut', { file: rel, line: Math.max(1, source.lines.length), column: 1 }, stop);
  return outcome(rel, size, source ? parseSource(source, sink) : null, sink);
}

/**
 * detect → parse for a source already in memory (`claimed`: detected already, on the file it was
 * read from). A log collector's capture (capture-prefix.ts) is detected and read without its
 * prefixes, by a grammar that reads timestamps itself with them (Grammar.readsTimestampPrefix);
 * lines quoted in Markdown without their quote markers (markdown-quote.ts); without the code lines
 * of Python warnings another process wrote into it (python-warnings.ts), line numbers mapped back;
 * a summary of other files' excerpts (`tail`, `grep -A`: excerpts.ts) one excerpt at a time.
 */
export function parseSource(original: TextSource, sink: DiagnosticSink, claimed?: readonly Grammar[]): Parsed {
  const text = unquoted(original);
  const excerpts = excerptsOf(text);
  if (excerpts !== null) return parseExcerpts(excerpts, sink);
  // a summary captured by a log collector (made in a container, a CI job) has its excerpts under the collector's prefixes
  const captured = isCapture(text.lines) ? excerptsOf(captureView(text, 'bare')) : null;
  if (captured === null) return parseText(text, sink, claimed);
  sink.report('ingest/capture-prefix', { file: text.path, line: 1, column: 1 });
  return parseExcerpts(captured, sink);
}

/**
 * The excerpts of other files a file gathers (`tail` and `grep -A` output, excerpts.ts), each read
 * as its own file's lines, and the rest of the file as itself. A run read from an excerpt is
 * labelled by its file (`logs/a.log`, or `logs/a.log: <its own label>` when it has one) and keeps
 * the file's name (RunRecord.excerptOf).
 */
function parseExcerpts({ excerpts, rest, firstLine }: Excerpts, sink: DiagnosticSink): Parsed {
  sink.report('ingest/excerpts', { file: rest.path, line: firstLine, column: 1 }, excerpts.length);
  const formats = new Set<FormatId>();
  const records: ParsedRecord[] = [];
  let recognized = false;
  const parts = [...excerpts, { origin: null, source: rest, lineOf: (n: number) => n }];
  for (const { origin, source, lineOf } of parts) {
    const parsed = parseText(source, remappedSink(withoutUnrecognized(sink), lineOf));
    if (parsed.formats.length > 0) recognized = true;
    for (const f of parsed.formats) formats.add(f);
    for (const { format, record } of parsed.records) {
      const at = remapRecord(record, lineOf);
      const labelled = origin !== null && at.kind === 'run' ? { ...at, label: at.label === null ? origin : `${origin}: ${at.label}`, excerptOf: origin } : at;
      records.push({ format, record: labelled });
    }
  }
  if (!recognized) sink.report('detect/unrecognized', { file: rest.path, line: 1, column: 1 });
  return { formats: [...formats], records };
}

/** The sink without `detect/unrecognized`: an excerpt, or the text around the excerpts, may hold nothing known when the file does. */
function withoutUnrecognized(sink: DiagnosticSink): DiagnosticSink {
  return {
    report(code, at, ...args) {
      if (code !== 'detect/unrecognized') sink.report(code, at, ...args);
    },
  };
}

/** parseSource once the source is without quote markers, of one file's lines. */
function parseText(text: TextSource, sink: DiagnosticSink, claimed?: readonly Grammar[]): Parsed {
  const kept = withoutWarningCode(text);
  if (kept === null) return parseUnquoted(text, sink, claimed);
  const parsed = parseUnquoted(kept.source, remappedSink(sink, kept.lineOf), claimed);
  return { formats: parsed.formats, records: parsed.records.map((r) => ({ format: r.format, record: remapRecord(r.record, kept.lineOf) })) };
}

/** parseSource once the source is without quote markers and Python warnings' code lines. */
function parseUnquoted(text: TextSource, sink: DiagnosticSink, claimed?: readonly Grammar[]): Parsed {
  const captured = isCapture(text.lines);
  if (captured) sink.report('ingest/capture-prefix', { file: text.path, line: 1, column: 1 });
  const source = captured ? captureView(text, 'bare') : text;
  let timestamped: TextSource | null = null;
  const sourceFor = (g: Grammar): TextSource => (captured && g.readsTimestampPrefix ? (timestamped ??= captureView(text, 'timestamped')) : source);
  return parseBare(source, sourceFor, sink, claimed ?? claimingGrammarsOf(source));
}

/** parseSource once the source is without prefixes (`sourceFor`: what each grammar reads). */
function parseBare(source: TextSource, sourceFor: (g: Grammar) => TextSource, sink: DiagnosticSink, claimed: readonly Grammar[]): Parsed {
  // as a stream of the file would: what the lines no line grammar wants show (see foreignClaims);
  // without a line grammar, every line beyond what head and tail detection read (a write-up's
  // blocks after a long preamble, a script's output with setup output before and a crash after)
  const byLine = claimed.filter((g) => g.lines);
  const claims = byLine.length > 0 || longerThanEnds(source) ? [...claimed, ...foreignClaimsOf(source, byLine, claimed)] : claimed;
  if (claims.length === 0) sink.report('detect/unrecognized', { file: source.path, line: 1, column: 1 });
  const parsed: Parsed = { formats: claims.map((g) => g.id), records: [] };
  const cutLine = cutLineOf(source.unterminated, source.lines.length, source.lines.at(-1));
  // the grammar's read without the cut line's last token (see withoutCutValues)
  const cutOf = (reread: () => readonly BenchRecord[]): CutLine | null => (cutLine === null ? null : { line: cutLine, token: lastTokenOf(source.lines.at(-1) ?? ''), reread });
  // the line grammars first: the grammars that read whole sources do not see the stats lines
  // they own, as a stream does not keep those for them (see LineParser.line)
  const owned = new Uint8Array(byLine.length > 0 ? source.lines.length : 0);
  const lineRecords = new Map<Grammar, ParsedRecord[]>();
  let cutStatsLine = false;
  for (const g of byLine) {
    const lines = g.lines;
    if (!lines) continue;
    const into: Parsed = { formats: [], records: [] };
    guarded(g, source.path, sink, into, (watched) => {
      // the same prefilter as when streaming, so both paths give the same records
      const parser = lines.call(g, source.path, watched);
      sourceFor(g).lines.forEach((text, i) => {
        if (!wantsLine(g, text)) return;
        // (a stats line the file ends inside, its last value perhaps shortened: not read)
        if (i + 1 === cutLine && lineReadsCutToken(g, source.path, text, cutLine)) cutStatsLine = true;
        else if (parser.line(text, i + 1) === true) owned[i] = 1;
      });
      return parser.finish();
    });
    lineRecords.set(g, into.records);
  }
  if (cutStatsLine) sink.report('read/cut-line', { file: source.path, line: cutLine ?? 1, column: 1 }, CUT_LINE_VALUES);
  const rest = owned.includes(1) ? withoutLines(source, (_, i) => owned[i] === 1) : null;
  for (const g of claims) {
    const done = lineRecords.get(g);
    if (done) for (const r of done) parsed.records.push(r);
    else if (rest) {
      const read = (s: TextSource, to: DiagnosticSink) => g.parse(s, remappedSink(to, rest.lineOf)).map((r) => remapRecord(r, rest.lineOf));
      const cut = rest.source.unterminated === true ? cutOf(() => read(withoutCutToken(rest.source), new DiagnosticCollector())) : null;
      guarded(g, source.path, sink, parsed, (watched) => read(rest.source, watched), cut);
    } else guarded(g, source.path, sink, parsed, (watched) => g.parse(sourceFor(g), watched), cutOf(() => g.parse(withoutCutToken(sourceFor(g)), new DiagnosticCollector())));
  }
  return parsed;
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

/** A capture's tail without its lines' prefixes (capture-prefix.ts), as its head is detected. */
function bareTail(tail: TextHead | null, capture: boolean): TextHead | null {
  return tail && capture ? { ...tail, head: tail.head.split('\n').map((l) => withoutCapturePrefix(l)).join('\n') } : tail;
}

/** The last 64 KiB, for detection, or null when they cannot be read (the stream that follows reports why). */
function readTailQuietly(abs: string, rel: RelPath, size: number, utf16: Utf16Encoding | null): TextHead | null {
  try {
    return readTail(abs, rel, size, utf16);
  } catch {
    return null;
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
