import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';

/**
 * Splits a JSONL file into one source per top-level JSON document (a document may wrap over
 * several lines in a paste), so a line cut short by a crash costs only itself. Lines outside any
 * document (a shell line, a pasted config summary) are reported as one aggregated diagnostic.
 * Each source keeps the original line numbers (earlier lines are blank).
 */
export function jsonDocumentSources(source: TextSource, sink: DiagnosticSink): TextSource[] {
  const out: TextSource[] = [];
  let depth = 0;
  let start = -1;
  let skipped = 0;
  let first = 0;
  const flush = (end: number): void => {
    if (start < 0) return;
    const lines: string[] = new Array<string>(start).fill('');
    for (let j = start; j < end; j++) lines.push(source.lines[j] ?? '');
    out.push({ path: source.path, lines });
    start = -1;
  };
  for (let i = 0; i < source.lines.length; i++) {
    const line = source.lines[i] ?? '';
    if (depth === 0) {
      if (line.trim() === '') continue;
      if (!/^\s*[{[]/.test(line)) {
        skipped++;
        if (first === 0) first = i + 1;
        continue;
      }
      start = i;
    }
    depth = Math.max(0, depth + braceDelta(line));
    if (depth === 0) flush(i + 1);
  }
  flush(source.lines.length);
  if (skipped > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, skipped, first);
  return out;
}

/** Net `{`/`[` depth change of a line, ignoring brackets inside JSON strings. */
function braceDelta(line: string): number {
  let d = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') d++;
    else if (ch === '}' || ch === ']') d--;
  }
  return d;
}
