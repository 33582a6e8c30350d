import type { ConfigRecord } from '../../src/core/records.js';

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s+\S/;

/**
 * Markdown section bounds (1-based, inclusive) of each line: a section runs from a heading to the
 * line before the next one. Only files with fenced code are read as Markdown: in a shell script or
 * a plain log, `# ...` is a comment, not a heading. Null when the file has no headings.
 */
export function headingLines(lines: readonly string[]): number[] | null {
  let inFence = false;
  let fences = 0;
  const headings: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (FENCE.test(l)) {
      inFence = !inFence;
      fences++;
      continue;
    }
    if (!inFence && HEADING.test(l)) headings.push(i + 1);
  }
  return fences > 0 && headings.length > 0 ? headings : null;
}

/**
 * Adds `section_start` / `section_end` to a record from a file with headings, so a later step that
 * sees only records (src/normalize/attach-in-file.ts) can tell which runs share its section.
 */
export function withSection(record: ConfigRecord, headings: readonly number[] | null, lineCount: number): ConfigRecord {
  if (headings === null) return record;
  const line = record.at.line;
  let start = 1;
  let end = lineCount;
  for (const h of headings) {
    if (h <= line) start = h;
    else {
      end = h - 1;
      break;
    }
  }
  return {
    ...record,
    fields: { ...record.fields, section_start: start, section_end: end },
    lines: { ...record.lines, section_start: start, section_end: end },
  };
}
