import type { TextSource } from '../core/grammar.js';

/**
 * Benchmark output quoted in Markdown, as a GitHub reply or a write-up quotes it (`> ` before each
 * line, `> > ` quoted twice): read without the markers, so every grammar sees the output itself,
 * not only the few that peel them off (src/parse/embedding.ts). A `>` followed by anything but a
 * space is no quote here (`>>> ` is Python's prompt, `>>>>>>> ` a merge conflict's marker).
 */
const QUOTE = /^(?: {0,3}>(?: |$))+/;
const GT = 62;
const SPACE = 32;

/** The line without its quote markers (the space after each one too). */
export function withoutQuote(line: string): string {
  const c = line.charCodeAt(0);
  if (c !== GT && c !== SPACE) return line;
  const m = QUOTE.exec(line);
  return m === null ? line : line.slice(m[0].length);
}

/** The source with its quoted lines unquoted, each at its own line number; the source itself when none is quoted. */
export function unquoted(source: TextSource): TextSource {
  let lines: string[] | null = null;
  source.lines.forEach((line, i) => {
    const bare = withoutQuote(line);
    if (bare === line) return;
    lines ??= [...source.lines];
    lines[i] = bare;
  });
  return lines === null ? source : { ...source, lines };
}
