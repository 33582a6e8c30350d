import { GRAMMARS } from '../../grammars/index.js';
import type { Grammar, TextHead } from '../core/grammar.js';

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

/** The union of the claimants' anchors, or null when any line grammar wants every line. */
export function unionAnchors(grammars: readonly Grammar[]): string[] | null {
  const all = new Set<string>();
  for (const g of grammars) {
    if (!g.anchors || g.anchors.length === 0) return null;
    for (const a of g.anchors) all.add(a);
  }
  return [...all];
}
