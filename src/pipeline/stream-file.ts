import { DiagnosticCollector, type DiagnosticSink } from '../core/diagnostic.js';
import { type Grammar, type LineParser, type TextHead, type TextSource, wantsLine } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import { withoutCapturePrefix } from '../ingest/capture-prefix.js';
import { type LineSink, streamLines, type TextEncoding } from '../ingest/line-stream.js';
import { lineFilterOf, scoredClaims } from './claims.js';
import { foreignClaims } from './foreign-claims.js';
import { KeptLines, type KeptWindow } from './kept-lines.js';
import { CUT_LINE_VALUES, cutLineOf, lastTokenOf, lineReadsCutToken, withoutCutToken } from './cut-line.js';
import { guarded, type Parsed } from './parsed.js';
import { remapRecord } from '../core/remap-lines.js';

/** Passes a streamed line to each claiming grammar that wants it (the stream's filter is their union). */
class ClaimantsSink implements LineSink {
  readonly parsers: readonly { readonly g: Grammar; readonly p: LineParser }[];
  readonly #kept: KeptLines;
  readonly #capture: boolean;
  readonly #rel: RelPath;
  readonly #sink: DiagnosticSink;
  /** The line the file ends inside, when a value may end there (cutLineOf); null when none was passed on. */
  cutLine: number | null = null;

  constructor(claims: readonly Grammar[], rel: RelPath, sink: DiagnosticSink, kept: KeptLines, capture: boolean) {
    this.parsers = claims.map((g) => ({ g, p: g.lines?.(rel, sink) as LineParser }));
    this.#rel = rel;
    this.#sink = sink;
    this.#kept = kept;
    this.#capture = capture;
  }

  line(raw: string, lineNo: number, last = false, overwritten?: string): void {
    // a log collector's capture: its lines as a whole read gives them (parseSource)
    const text = this.#capture ? withoutCapturePrefix(raw) : raw;
    // the line the file ends inside, when a value may end there (as parseBare reads it)
    const cut = last && cutLineOf(true, lineNo, text) !== null;
    if (cut) this.cutLine = lineNo;
    let wanted = false;
    let owned = false;
    let cutStats = false;
    for (const { g, p } of this.parsers) {
      const own = this.#capture && g.readsTimestampPrefix ? withoutCapturePrefix(raw, 'timestamped') : text;
      if (!wantsLine(g, own)) continue;
      wanted = true;
      if (cut && lineReadsCutToken(g, this.#rel, own, lineNo)) cutStats = true;
      else if (p.line(own, lineNo) === true) owned = true;
    }
    if (cutStats) this.#sink.report('read/cut-line', { file: this.#rel, line: lineNo, column: 1 }, CUT_LINE_VALUES);
    // a stats line is its grammar's alone: not kept, so a busy log's are not what the other grammars
    // read; a line no line grammar wants is what detection reads (see foreignClaims)
    if (!owned) this.#kept.line(text, lineNo, !wanted, overwritten !== undefined && this.#capture ? withoutCapturePrefix(overwritten) : overwritten);
  }
}

/**
 * Streams a server log to its line grammars. Grammars that read whole sources read the lines the
 * stream keeps for them: all but the access and request-log lines the line grammars skip and the
 * stats lines they read (LineParser.line), a window at a time (KeptLines), numbered as in the
 * file. They are those that claim the file's head or tail, and those that claim the lines no line
 * grammar wanted: a result block printed in the middle of a tee'd server log, the server logging
 * on long after it. A log collector's capture (`capture`) is read without its lines' prefixes, as
 * parseSource reads it.
 */
export function streamFile(abs: string, rel: RelPath, claims: readonly Grammar[], sink: DiagnosticSink, encoding: TextEncoding, capture = false): Parsed {
  if (capture) sink.report('ingest/capture-prefix', { file: rel, line: 1, column: 1 });
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
    const known = [...claims, ...found];
    const fresh = foreignClaims(rel, window.foreignText, known);
    // of many windows, a grammar reads only those it claims (a debug log's windows are mostly noise)
    const many = window.from > 0 || window.to !== Number.POSITIVE_INFINITY;
    const claimed = known.filter((g) => !g.lines);
    const head = many && claimed.length > 0 ? { path: rel, head: window.source.lines.join('\n') } : null;
    found.push(...fresh);
    const windowSink = ownedBy(window, sink);
    // (only the last window holds the file's last line: see KeptLines)
    const cutLine = window.source.unterminated === true ? window.lineOf(window.source.lines.length) : null;
    for (const g of [...claimed.filter((c) => !head || claimsQuietly(c, head)), ...fresh]) {
      let into = wholeRecords.get(g);
      if (!into) wholeRecords.set(g, (into = { formats: [], records: [] }));
      const read = (source: TextSource, to: DiagnosticSink) => g.parse(source, to).flatMap((r) => {
        const record = remapRecord(r, window.lineOf);
        return record.at.line >= window.from && record.at.line < window.to ? [record] : [];
      });
      const cut = cutLine === null ? null : { line: cutLine, token: lastTokenOf(window.source.lines.at(-1) ?? ''), reread: () => read(withoutCutToken(window.source), new DiagnosticCollector()) };
      guarded(g, rel, failureSink, into, () => read(window.source, windowSink), cut);
    }
  });
  const lines = new ClaimantsSink(byLine, rel, sink, kept, capture);
  let cutLine: number | null = null;
  try {
    // every line the line grammars do not skip reaches the sink: what they want, and what is kept
    const headsSuffice = claims.every((g) => g.lines !== undefined && g.lineHeadsOnly === true);
    streamLines(abs, rel, { anchors: null, skip: lineFilterOf(byLine).skip }, lines, sink, encoding, headsSuffice);
    // (a last line the stream passed over was read by no grammar)
    cutLine = lines.cutLine;
  } catch (e) {
    sink.report('ingest/unreadable', { file: rel, line: 1, column: 1 }, e instanceof Error ? e.message.replaceAll(abs, rel) : String(e));
  }
  kept.finish(cutLine);
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
  return scoredClaims(head, [g]).length > 0;
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
