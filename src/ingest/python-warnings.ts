import type { TextSource } from '../core/grammar.js';
import { type LinesKept, withoutLines } from '../core/remap-lines.js';

/**
 * A Python warning's first line, as the `warnings` module prints it on stderr:
 * `/…/x.py:128: UserWarning: message`. A path is matched up to its first colon and at most a
 * length no real one reaches (an unbounded `\S+\.py:` looked through the whole of a long line
 * without spaces before failing). No `\s` in it: client-output.ts rewrites every `\s` of the
 * patterns that hold this one.
 */
export const PYTHON_WARNING = /(?:[A-Za-z]:)?(?:(?!:)\S){1,1024}\.py:\d+: [A-Z]\w*Warning: /;

/** The same after what a line is embedded in (indentation, `# `, `// `), which it captures. */
const EMBEDDED_WARNING = new RegExp(`^([\\t >#/]*?)${PYTHON_WARNING.source}`);

const SPACE = 32;
const TAB = 9;
/** What the `warnings` module puts before the line of code it prints. */
const CODE_INDENT = '  ';

/** What every warning's first line holds: lines without it are not tried against the pattern. */
const WARNING_MARK = 'Warning: ';

/**
 * Lines of a message that went on past its first line (`If this is not desired, please set …`),
 * at most: no real warning's message has more above its source line.
 */
const MAX_MESSAGE_LINES = 2;

/**
 * A table's row, a result's `label: number` (`  Device:   131072` under `Total cached tokens:`), or
 * any line that starts with a label (`Per-round metrics:`, `  Round 0: Average TTFT = 0.61s`): a
 * benchmark's line, never a warning's.
 */
const RESULT_LIKE = /[|│┃]|:\s*[-+]?\.?\d|^\s*[^:(]{1,100}:(?:\s|$)/;

/** What a line no message goes on with starts with: a rule, a heading, a list's item, a border. */
const NOT_A_MESSAGE_START = /^\s*[-=#*_~<>[{+]/;

/**
 * Under its first line the `warnings` module prints the line of code that warned, indented by two
 * spaces (`  warnings.warn(`, `  return torch._C._cuda_getDeviceCount() > 0`), after the rest of a
 * message of several lines. When another process wrote such a warning into a benchmark's output,
 * its first line is an interleaved line each grammar passes over (INTERLEAVED_LINE), but the code
 * line is text of no kind, that ended a report or a table there: those lines (the message's rest
 * and the code) are left out before the grammars read the source, and every line number is mapped
 * back. Null when the source has none.
 */
export function withoutWarningCode(source: TextSource): LinesKept | null {
  const { lines } = source;
  let drop: Set<number> | null = null;
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    if (!line.includes(WARNING_MARK)) continue;
    const m = EMBEDDED_WARNING.exec(line);
    if (m === null) continue;
    const code = codeLineBelow(lines, i, m[1] ?? '');
    if (code === null) continue;
    drop ??= new Set();
    for (let k = i + 1; k <= code; k++) drop.add(k);
    i = code;
  }
  const dropped = drop;
  return dropped === null ? null : withoutLines(source, (_, i) => dropped.has(i));
}

/**
 * The index of the warning's code line under line `at` (its message's rest above it), or null. Each
 * line has the warning's embedding (`prefix`: a pasted log's indentation or `# `) before its own text.
 */
function codeLineBelow(lines: readonly string[], at: number, prefix: string): number | null {
  for (let k = at + 1; k <= at + 1 + MAX_MESSAGE_LINES && k < lines.length; k++) {
    const line = lines[k] as string;
    if (!line.startsWith(prefix)) return null;
    const text = line.slice(prefix.length);
    if (text.trim() === '' || RESULT_LIKE.test(text) || NOT_A_MESSAGE_START.test(text) || EMBEDDED_WARNING.test(text)) return null;
    const c = text.charCodeAt(CODE_INDENT.length);
    if (text.startsWith(CODE_INDENT) && c !== SPACE && c !== TAB) return k;
  }
  return null;
}
