import { type Grammar, type TextSource, wantsLine } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import { HEAD_CHARS } from '../ingest/read.js';
import { lineFilterOf, wholeSourceClaims } from './claims.js';
import { KEPT_WINDOW_CHARS } from './kept-lines.js';

/**
 * The grammars that read whole sources, beyond `claims`, that claim the lines of a log no line
 * grammar wants (nor skips), read as a head is: a result block or a command in the middle of a
 * tee'd server log, the server having logged on long after it. A stream asks it of each window's
 * such lines (KeptWindow), a whole read of the same amount at a time. Empty lines are not read.
 */
export function foreignClaims(path: RelPath, foreignText: string, claims: readonly Grammar[]): Grammar[] {
  if (foreignText === '') return [];
  return wholeSourceClaims({ path, head: foreignText }).filter((g) => !claims.includes(g));
}

/** foreignClaims of a source read whole, as a stream of it would find them (KEPT_WINDOW_CHARS of those lines at a time). */
export function foreignClaimsOf(source: TextSource, byLine: readonly Grammar[], claims: readonly Grammar[]): Grammar[] {
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
    // an empty line tells a detector nothing (a skimmed value's line breaks, see json-skim.ts)
    if (line === '' || skip.some((s) => line.includes(s)) || byLine.some((g) => wantsLine(g, line))) continue;
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
export function longerThanEnds(source: TextSource): boolean {
  let chars = 0;
  for (const line of source.lines) {
    chars += line.length + 1;
    if (chars > 2 * HEAD_CHARS) return true;
  }
  return false;
}
