/** A traceback's first line, and the line Python prints above one it could not raise (at shutdown). */
const TRACEBACK = /^Traceback \(most recent call last\):\s*$/;
/** What every traceback's first line starts with: lines (and heads) without it are not tried. */
export const TRACEBACK_START = 'Traceback (';
const IGNORED = /^Exception ignored in: /;
/** `  File "/…/x.py", line 243, in _releaseLock`: a frame. */
const FRAME = /^\s*File "[^"\n]{1,1024}", line \d+(?:, in \S.*)?\s*$/;
/** How far a line is indented. */
const INDENT = /^\s*/;
/** Lines of code and markers under one frame, at most. */
const MAX_CODE_LINES = 3;
/** What Python prints between the tracebacks of a chain. */
const CHAIN = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$/;
/**
 * The exception line that ends a traceback: a type named as an error is (`…Error`, `…Exception`,
 * `KeyboardInterrupt`, `SystemExit`, `StopIteration`, `…Timeout`, `…Warning`, or a dotted name,
 * `httpx.ReadTimeout`, `torch.OutOfMemoryError`), then `: message` or nothing. Never a benchmark's
 * `Label: value`, whose label has spaces or is not named so.
 */
const EXCEPTION_LINE = /^(?:(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*|[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Iteration|Timeout|Warning|Cancelled))(?:\([\w.]+\))?(?::(?:\s.*)?)?\s*$/;

/**
 * The lines (0-based) of the Python tracebacks another process wrote into a text (a server crashing
 * while a benchmark printed its results, `tee` mixing the two): from `Traceback (most recent call
 * last):` (and the `Exception ignored in: …` above it) over its frames, each with up to
 * MAX_CODE_LINES lines of code under it, to its exception line, and the tracebacks chained to it.
 * Only a traceback with at least one frame is one; a frame's lines of code (and the `^^^^` under
 * them, Python 3.11) are those indented past it. Its lines are recognized as they are printed,
 * without a process prefix (a prefixed line is another process's line by its prefix already).
 */
export function tracebackLines(lines: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    // at a line's start, as Python prints it: not a traceback quoted inside a YAML or JSON string
    if (!(lines[i] as string).startsWith(TRACEBACK_START) || !TRACEBACK.test(lines[i] as string)) continue;
    const start = i > 0 && IGNORED.test(lineAt(lines, i - 1)) ? i - 1 : i;
    const end = tracebackEnd(lines, i);
    if (end === null) continue;
    for (let n = start; n < end; n++) found.push(n);
    i = end - 1;
  }
  return found;
}

function lineAt(lines: readonly string[], i: number): string {
  return (lines[i] ?? '').trim();
}

function indentOf(lines: readonly string[], i: number): number {
  return INDENT.exec(lines[i] ?? '')?.[0].length ?? 0;
}

/** Where the traceback starting at line `at` (its `Traceback` line) ends, its chain included; null when it has no frame. */
function tracebackEnd(lines: readonly string[], at: number): number | null {
  let i = at + 1;
  let frames = 0;
  while (i < lines.length && FRAME.test(lines[i] as string)) {
    const frameIndent = indentOf(lines, i);
    frames++;
    i++;
    for (let code = 0; code < MAX_CODE_LINES && i < lines.length && lineAt(lines, i) !== '' && indentOf(lines, i) > frameIndent && !FRAME.test(lines[i] as string); code++) i++;
  }
  if (frames === 0) return null;
  if (i < lines.length && EXCEPTION_LINE.test(lineAt(lines, i))) i++;
  // a chained traceback: a blank line, the chain's sentence, a blank line, the next traceback
  const blank = (n: number): boolean => n < lines.length && lineAt(lines, n) === '';
  const chain = blank(i) ? i + 1 : i;
  if (chain < lines.length && CHAIN.test(lineAt(lines, chain))) {
    const next = blank(chain + 1) ? chain + 2 : chain + 1;
    if (next < lines.length && TRACEBACK.test(lines[next] as string)) return tracebackEnd(lines, next) ?? i;
  }
  return i;
}
