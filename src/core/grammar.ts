import type { DiagnosticSink } from './diagnostic.js';
import type { FormatId } from './format-ids.js';
import type { BenchRecord } from './records.js';
import type { RelPath } from './types.js';
import { anyLiteral } from './literals.js';

/** The first bytes of a file, decoded and cleaned, for cheap detection. */
export interface TextHead {
  readonly path: RelPath;
  readonly head: string;
}

/**
 * A decoded file: `lines[i]` is line i+1 after cleaning (BOM, CRLF, tqdm `\r` redraws and ANSI
 * escapes removed). Cleaning never adds or removes lines, so line numbers are the original ones.
 */
export interface TextSource {
  readonly path: RelPath;
  readonly lines: readonly string[];
  /** The text ends without a line break: its last line may have been cut while written (unknown when absent). */
  readonly unterminated?: boolean;
  /**
   * By 0-based line index, the text a line began with before a `\r` redraw took its place
   * (CleanLine.overwritten): absent when no line lost its start so. The serving blocks read it to
   * put a block line a progress bar was drawn over back together (grammars/_shared/serving-block/splices.ts);
   * the other consoles' grammars to say such a line's text is lost (grammars/_shared/client-output.ts).
   */
  readonly overwritten?: ReadonlyMap<number, string>;
}

/** score in [0, 1]; 0 means "not mine". */
export interface Detection {
  readonly score: number;
  readonly reason: string;
}

/**
 * Line-at-a-time parsing, for formats read line by line (server logs of hundreds of MB): the
 * pipeline may stream such a file instead of holding it in memory.
 */
export interface LineParser {
  /**
   * Called for every cleaned line, in order, with its 1-based line number. Returns true when the
   * line is a server stats line it read (the bulk of a busy log): such a line is no other
   * grammar's (a result block or a command never holds one), and the grammars that read whole
   * sources are given the file without them, whether it is streamed or read whole. A line the
   * file ends inside is not passed when what it gives depends on its last token, which the cut
   * may have shortened (src/pipeline/cut-line.ts, lineReadsCutToken).
   */
  line(text: string, lineNo: number): boolean | void;
  /** Called once after the last line; returns every record. */
  finish(): BenchRecord[];
}

/** The contract every grammars/<id>/index.ts implements. */
export interface Grammar {
  readonly id: FormatId;
  readonly title: string;
  /** Cheap, total, pure: looks only at the head. Never throws. */
  detect(input: TextHead): Detection;
  /** Total: partial records plus diagnostics for ANY input. Never throws on purpose. */
  parse(source: TextSource, sink: DiagnosticSink): BenchRecord[];
  /** Optional streaming form of `parse` (same records for the same lines). */
  lines?(path: RelPath, sink: DiagnosticSink): LineParser;
  /**
   * Optional prefilter for `lines`: a line containing none of these substrings carries nothing
   * for this grammar and may be skipped without being decoded or passed on.
   */
  readonly anchors?: readonly string[];
  /**
   * Optional, for `lines`: substrings of lines this grammar never reads (access and request-log
   * lines, the bulk of big server logs). A line holding one is skipped even if it holds an anchor.
   * Keep the list short: a literal costs a search per line where it is frequent, and one where it
   * is absent only on the lines that hold an anchor (src/ingest/line-filter.ts).
   */
  readonly skip?: readonly string[];
  /**
   * Optional, for `lines`: the grammar looks only at the start and end of a line (a per-request
   * file it accounts for without reading it): a line longer than a stream keeps
   * (src/ingest/line-stream.ts) loses it nothing, and is said with an info, not a warning, when
   * every grammar streaming the file is such.
   */
  readonly lineHeadsOnly?: boolean;
  /**
   * Optional, for JSON formats: paths of values this grammar never reads, from a top-level
   * document's keys (`ttfts`, `benchmarks[].requests`: per-request data). A large file claimed
   * only by grammars that all list a path is read without the arrays and objects there
   * (src/ingest/json-skim.ts); the grammar must give the same records either way.
   */
  readonly skim?: readonly string[];
  /**
   * Optional: the grammar reads itself the time a log collector writes before every line
   * (`docker logs -t`'s, journald's; src/ingest/capture-prefix.ts). Such a file's lines reach it
   * with that time kept, other collectors' prefixes gone; they reach other grammars with none.
   */
  readonly readsTimestampPrefix?: boolean;
  /**
   * Optional: the grammar reads values from the text of lines (`Mean TTFT (ms): 12.34`, a table or
   * CSV row, a YAML scalar, a command's arguments), where nothing shows where a value ends. In a
   * file that ends inside its last line (`unterminated`: killed while writing, a copy cut short),
   * a value on that line may be cut (`12.34` written as `12.`): the pipeline drops such values
   * with a warning (src/pipeline/cut-line.ts). Left unset by the grammars that read JSON
   * documents, which show where they end (a cut one is read up to its last whole value).
   */
  readonly readsLineText?: boolean;
}

/** The prefilter of a line grammar: is this line passed to its `lines` parser? */
export function wantsLine(grammar: Pick<Grammar, 'anchors' | 'skip'>, text: string): boolean {
  if (grammar.skip?.some((s) => text.includes(s))) return false;
  return !grammar.anchors || grammar.anchors.length === 0 || anyOf(grammar.anchors).test(text);
}

/** Each anchor list's regular expression (anyLiteral), made once. */
const ANY_ANCHOR = new WeakMap<readonly string[], RegExp>();

function anyOf(anchors: readonly string[]): RegExp {
  let re = ANY_ANCHOR.get(anchors);
  if (!re) ANY_ANCHOR.set(anchors, (re = anyLiteral(anchors)));
  return re;
}

/** Implements `parse` through a grammar's line parser. */
export function parseByLines(parser: LineParser, source: TextSource): BenchRecord[] {
  for (let i = 0; i < source.lines.length; i++) parser.line(source.lines[i] ?? '', i + 1);
  return parser.finish();
}

export const NOT_MINE: Detection = Object.freeze({ score: 0, reason: '' });
