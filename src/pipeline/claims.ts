import { GRAMMARS } from '../../grammars/index.js';
import type { FormatId } from '../core/format-ids.js';
import type { Grammar, TextHead, TextSource } from '../core/grammar.js';
import { headOf, tailOf } from '../ingest/read.js';
import type { LineFilterSpec } from '../ingest/line-filter.js';

const GRAMMAR_LIST: readonly Grammar[] = Object.values(GRAMMARS);
const WHOLE_SOURCE_GRAMMARS: readonly Grammar[] = GRAMMAR_LIST.filter((g) => !g.lines);

/** A grammar claiming a head, and how sure it is. */
export interface Claim {
  readonly g: Grammar;
  readonly score: number;
}

/**
 * The grammars that claim a head with their scores, best first (ties by id, so the order is
 * stable). A grammar whose detect() throws is treated as not claiming: detection must never cost the file.
 */
export function scoredClaims(head: TextHead, grammars: readonly Grammar[] = GRAMMAR_LIST): Claim[] {
  const scored: Claim[] = [];
  for (const g of grammars) {
    let score = 0;
    try {
      score = g.detect(head).score;
    } catch {
      score = 0;
    }
    if (score > 0) scored.push({ g, score });
  }
  return oneEngineLog(scored).sort((a, b) => b.score - a.score || (a.g.id < b.g.id ? -1 : 1));
}

/** The server-log grammars, one engine's each. */
const ENGINE_LOGS: ReadonlySet<FormatId> = new Set<FormatId>(['vllm-server', 'sglang-server', 'trtllm-serve']);
/**
 * The score an engine's server-log grammar claims a head with by its engine's log prefix alone (on
 * lines any server prints: a traceback, uvicorn's `Started server process`); by lines only its
 * engine prints it claims more.
 */
export const PREFIX_ONLY_SCORE = 0.5;

/**
 * A server log is one engine's: a claim by an engine's log prefix alone gives way to another
 * engine's claim by its own lines. An SGLang 0.4 server imports vLLM, which prints `INFO 03-07
 * 12:29:02 __init__.py:190] Automatically detected platform cuda.` in vLLM's prefix, and uvicorn's
 * `Started server process` follows: no vLLM server, whose config (`engine: vllm`, its uvicorn line
 * a start) would disagree with the SGLang server's in every run linked to the log.
 */
function oneEngineLog(claims: Claim[]): Claim[] {
  const own = claims.some((c) => ENGINE_LOGS.has(c.g.id) && c.score > PREFIX_ONLY_SCORE);
  return own ? claims.filter((c) => !(ENGINE_LOGS.has(c.g.id) && c.score === PREFIX_ONLY_SCORE)) : claims;
}

/** The grammars that claim a file, best first. */
export function claimingGrammars(head: TextHead): Grammar[] {
  return scoredClaims(head).map((c) => c.g);
}

/** The grammars that read whole sources (no line grammar: they are the costly detectors) that claim a text, best first. */
export function wholeSourceClaims(head: TextHead): Grammar[] {
  return scoredClaims(head, WHOLE_SOURCE_GRAMMARS).map((c) => c.g);
}

/** A whole-source grammar this sure of a head has found results in it, not a hint that some may follow. */
const RESULTS_SCORE = 0.5;

/**
 * True when a whole-source grammar found results in a head (its claims): the file is a benchmark's
 * output (or a write-up), whatever server lines were tee'd or pasted into it.
 */
export function holdsResults(headClaims: readonly Claim[]): boolean {
  return headClaims.some((c) => !c.g.lines && c.score >= RESULTS_SCORE);
}

/**
 * The grammars that claim a source by its head, then those that claim it only by its tail (a
 * result block at the end of a long log).
 */
export function claimingGrammarsOf(source: TextSource): Grammar[] {
  return claimingGrammarsAtEnds(headOf(source), tailOf(source));
}

/**
 * The grammars that claim a file's head, then those that claim only its tail (null: the head holds
 * it all). The head's claims may be given when they were asked already.
 */
export function claimingGrammarsAtEnds(head: TextHead, tail: TextHead | null, headClaims: readonly Claim[] = scoredClaims(head)): Grammar[] {
  const claims = [...headClaims];
  if (tail !== null) for (const c of scoredClaims(tail)) if (!claims.some((h) => h.g === c.g)) claims.push(c);
  // an engine's prefix at the tail (a crash) is no log of its own beside the head's engine
  return oneEngineLog(claims).map((c) => c.g);
}

/**
 * The stream prefilter for several line grammars reading one file: a line is decoded when any of
 * them may want it, so anchors are the union (none when one grammar wants every line) and skip
 * substrings the ones every grammar skips.
 */
export function lineFilterOf(grammars: readonly Grammar[]): LineFilterSpec {
  const anchors = new Set<string>();
  let everyLine = false;
  for (const g of grammars) {
    if (!g.anchors || g.anchors.length === 0) everyLine = true;
    else for (const a of g.anchors) anchors.add(a);
  }
  const skip = grammars.length === 0 ? [] : (grammars[0]?.skip ?? []).filter((s) => grammars.every((g) => g.skip?.includes(s)));
  return { anchors: everyLine ? null : [...anchors], skip };
}
