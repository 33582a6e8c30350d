/**
 * Result blocks are pasted into Markdown quotes (`> `), shell comments (`# `), indented admonitions
 * and code comments (`// `). This peels those wrappers off one line so a grammar sees the content.
 * `#` is removed only when followed by a space (SGLang prints `#Input tokens: N` as content).
 */
const WRAPPER = /^(?:\s*(?:>|#(?=\s|$)|\/\/(?=\s)))+/;

export function stripEmbedding(line: string): string {
  return line.replace(WRAPPER, '').trim();
}

/**
 * The line without its wrapper (and the space after it), its own spacing kept: the rest of a line
 * split in two (grammars/_shared/serving-block/splices.ts) may begin with the space between two words.
 */
export function withoutWrapper(line: string): string {
  const m = WRAPPER.exec(line);
  return m === null ? line : line.slice(m[0].length).replace(/^ /, '');
}
