import type { ConfigRecord } from '../../src/core/records.js';

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(\S.*)$/;
/**
 * A heading of a section that goes on with what the one before it set up: its results (`## Results`,
 * `#### Expected Result Format`, `### Output`, `### 结果`, `### 性能数据`) or the next step of a
 * guide (`#### Step 4`, `## Run the benchmark`, `### Client`): a command above it applies below it
 * too, up to the next command of its kind (the nearest wins).
 */
const FOLLOW_ON_HEADING = /\b(?:results?|outputs?|expected|performance|perf|numbers|step\s*\d+|benchmark(?:ing|s)?|bench|client|test(?:ing)?|usage|measure(?:ment)?s?)\b|结果|結果|性能|数据|輸出|输出|测试|測試|压测|步骤/i;

/**
 * A heading of a section that sets up a server for what follows (`## Serve`, `## Launch the
 * server`, `### Deployment`, `## 启动服务`): the server it launches is the one every later section
 * of its level measures (`## 1. Completions 256/128`, `## 2. Chat 512/256`), up to a heading above
 * its level; a later launch, nearer to a run, still wins.
 */
const SETUP_HEADING = /^(?:\d+[.)]\s*)?(?:serve|server|serving|launch(?:ing)?(?: the)?(?: server)?|start(?:ing)? the server|deploy(?:ment|ing)?|set ?up|setup)\b(?!.*\b(?:benchmark|result|bench)s?\b)|启动|部署/i;

/** A Markdown heading: its line (1-based), its level (`#` = 1) and its text. */
export interface Heading {
  readonly line: number;
  readonly level: number;
  readonly text: string;
}

/**
 * The Markdown headings of a file (outside fenced code). Only files with fenced code are read as
 * Markdown: in a shell script or a plain log, `# ...` is a comment, not a heading. Null when the
 * file has no headings.
 */
export function headingLines(lines: readonly string[]): Heading[] | null {
  let inFence = false;
  let fences = 0;
  const headings: Heading[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (FENCE.test(l)) {
      inFence = !inFence;
      fences++;
      continue;
    }
    const m = inFence ? null : HEADING.exec(l);
    if (m) headings.push({ line: i + 1, level: (m[1] ?? '').length, text: m[2] ?? '' });
  }
  return fences > 0 && headings.length > 0 ? headings : null;
}

/**
 * Adds `section_start` / `section_end` to a record from a file with headings, so a later step that
 * sees only records (src/normalize/attach-in-file.ts) can tell which runs it applies to: from its
 * section's heading to the next heading of that level or above (its subsections included), and on
 * over the sections that go on with it (FOLLOW_ON_HEADING: `#### Benchmark` with the command,
 * `#### Expected Result Format` with its output), at their level from there. Before the first
 * heading, up to it.
 */
export function withSection(record: ConfigRecord, headings: readonly Heading[] | null, lineCount: number): ConfigRecord {
  if (headings === null) return record;
  const line = record.at.line;
  const k = headings.findLastIndex((h) => h.line <= line);
  const own = headings[k];
  const start = own?.line ?? 1;
  let end = lineCount;
  let level = own?.level ?? 0;
  // a server set up under its own heading serves the sections of that level after it
  const setup = own !== undefined && record.origin === 'launch-command' && SETUP_HEADING.test(own.text.trim());
  for (let j = k + 1; j < headings.length; j++) {
    const h = headings[j] as Heading;
    if (own !== undefined && (h.level > level || (setup && h.level >= own.level))) continue;
    if (own !== undefined && FOLLOW_ON_HEADING.test(h.text)) {
      // (a guide's `#### Step 4` after the `##### FP8` variant of its step 3: on at that level)
      level = h.level;
      continue;
    }
    end = h.line - 1;
    break;
  }
  return {
    ...record,
    fields: { ...record.fields, section_start: start, section_end: end },
    lines: { ...record.lines, section_start: start, section_end: end },
  };
}
