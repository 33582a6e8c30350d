/**
 * Detection reads a JSON file's head with a few dozen patterns looking for keys. In a saved result
 * most of that head is per-request numbers (`"ttfts": [0.129, 0.914, …]`, `"itls": [[…], …]`),
 * which every pattern scans through and none reads. Collapsing each long run of them to its first
 * element leaves the keys and every short value as they were, in a head a tenth as long.
 */

/** A number as JSON (and Python's json) writes it. */
const NUMBER = String.raw`-?\d[\d.eE+-]*`;
/** Runs shorter than this are left alone: a short array may be a value a detector reads. */
const MIN_RUN = 8;

/** `[n, n, n, …` of at least MIN_RUN numbers: kept as `[n`, so the closing bracket stays where it was. */
const NUMBER_RUN = new RegExp(String.raw`\[\s*(${NUMBER})(?:\s*,\s*${NUMBER}){${MIN_RUN - 1},}`, 'g');
/** `[[…], […], …` of at least MIN_RUN arrays of numbers (already collapsed or short): kept as `[[…]`. */
const ARRAY_RUN = new RegExp(String.raw`\[(\[[-\d.eE+,\s]*\])(?:\s*,\s*\[[-\d.eE+,\s]*\]){${MIN_RUN - 1},}`, 'g');
/** A tail that starts inside a run (the window cut it, maybe inside a number): kept as its first (part of a) number. */
const LEADING_RUN = new RegExp(String.raw`^[\s,]*([\d.eE+-]*)(?:\s*,\s*${NUMBER}){${MIN_RUN - 1},}`);

/** The head of a JSON text without its long runs of numbers and of arrays of numbers. */
export function withoutNumberRuns(head: string): string {
  return head.replace(LEADING_RUN, '$1').replace(NUMBER_RUN, '[$1').replace(ARRAY_RUN, '[$1');
}
