import { GRAMMARS } from '../../grammars/index.js';
import type { Grammar, TextHead, TextSource } from '../core/grammar.js';
import { headOf, tailOf } from '../ingest/read.js';
import type { LineFilterSpec } from '../ingest/line-filter.js';

const GRAMMAR_LIST: readonly Grammar[] = Object.values(GRAMMARS);

/**
 * The grammars that claim a file, best first (ties by id, so the order is stable). A grammar whose
 * detect() throws is treated as not claiming: detection must never cost the file.
 */
export function claimingGrammars(head: TextHead): Grammar[] {
  const scored: { g: Grammar; score: number }[] = [];
  for (const g of GRAMMAR_LIST) {
    let score = 0;
    try {
      score = g.detect(head).score;
    } catch {
      score = 0;
    }
    if (score > 0) scored.push({ g, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.g.id < b.g.id ? -1 : 1)).map((s) => s.g);
}

/** A whole-source grammar this sure of a head has found results in it, not a hint that some may follow. */
const RESULTS_SCORE = 0.5;

/**
 * True when a whole-source grammar finds results in this head: the file is a benchmark's output (or
 * a write-up), whatever server lines were tee'd or pasted into it.
 */
export function headHoldsResults(head: TextHead): boolean {
  return GRAMMAR_LIST.some((g) => {
    if (g.lines) return false;
    try {
      return g.detect(head).score >= RESULTS_SCORE;
    } catch {
      return false;
    }
  });
}

/**
 * The grammars that claim a source by its head, then those that claim it only by its tail (a
 * result block at the end of a long log).
 */
export function claimingGrammarsOf(source: TextSource): Grammar[] {
  return claimingGrammarsAtEnds(headOf(source), tailOf(source));
}

/** The grammars that claim a file's head, then those that claim only its tail (null: the head holds it all). */
export function claimingGrammarsAtEnds(head: TextHead, tail: TextHead | null): Grammar[] {
  const claims = claimingGrammars(head);
  if (tail !== null) for (const g of claimingGrammars(tail)) if (!claims.includes(g)) claims.push(g);
  return claims;
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
