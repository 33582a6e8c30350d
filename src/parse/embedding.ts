/**
 * Result blocks are pasted into Markdown quotes (`> `), shell comments (`# `), indented admonitions
 * and code comments (`// `). This peels those wrappers off one line so a grammar sees the content.
 * `#` is removed only when followed by a space (SGLang prints `#Input tokens: N` as content).
 */
const WRAPPER = /^(?:\s*(?:>|#(?=\s|$)|\/\/(?=\s)))+/;

export function stripEmbedding(line: string): string {
  return line.replace(WRAPPER, '').trim();
}
