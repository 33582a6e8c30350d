import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { ConfigRecord } from '../../src/core/records.js';
import { expandWord } from './expand.js';
import { recognize, TRIGGER, type Word } from './recognize.js';
import { toConfigRecord } from './record.js';
import { readHeredoc, readShownYaml, withShownConfigs, type WrittenFile, type WrittenFiles } from './written-files.js';
import { type RawWord, shellStatements } from './shell.js';

const MAX_CONTINUATION = 300;
const C = 99;
const BACKTICK = 96;
const ASSIGNMENT_LINE = /^\s*(?:(?:export|local|readonly|declare)\s+)?[A-Za-z_]\w*=/;
const FOR_LINE = /^\s*for\s+([A-Za-z_]\w*)\s+in\s+(.*?)\s*(?:;\s*do\b.*)?$/;
const DONE = /(?:^|[;&\s])done\b/;
const MD_QUOTE = /^\s*(?:>\s?)+/;
/**
 * The command SGLang's test utilities print before starting a server (`popen_launch_server`:
 * `command=python3 -m sglang.launch_server …`, in bench_speculative.py's console among others): a
 * command, not an assignment followed by one.
 */
const PRINTED_COMMAND = /^(\s*)command=(?=(?:python3?|sglang|vllm|trtllm-serve)\b)/;

/**
 * Walks a file once: keeps literal `VAR=value` assignments and `for X in ...` loop values in
 * scope, joins `\` continuations around every line that may hold a command, and turns each
 * recognized command into a ConfigRecord.
 */
export function findCommands(source: TextSource, sink: DiagnosticSink, limit = Infinity): ConfigRecord[] {
  const lines = source.lines.map((l) => l.replace(MD_QUOTE, (m) => ' '.repeat(m.length)).replace(PRINTED_COMMAND, (m) => ' '.repeat(m.length)));
  const vars = new Map<string, string>();
  const loops: { name: string; values: string[] }[] = [];
  const records: ConfigRecord[] = [];
  const written: WrittenFiles = new Map();
  const shown: WrittenFile[] = [];
  for (let i = 0; i < lines.length && records.length < limit; i++) {
    const line = lines[i] ?? '';
    // (a here-document starts with `cat`, a YAML block with its fence: the first character tells most lines apart)
    const first = firstCharCode(line);
    const closed = first === C ? readHeredoc(lines, i, written) : first === BACKTICK ? readShownYaml(lines, i, shown) : -1;
    if (closed >= 0) {
      i = closed;
      continue;
    }
    const loop = FOR_LINE.exec(line);
    if (loop?.[1]) loops.push({ name: loop[1], values: words(loop[2] ?? '', i + 1, vars).map((w) => w.text) });
    if (TRIGGER.test(line)) {
      let start = i;
      while (start > 0 && i - start < MAX_CONTINUATION && continues(lines[start - 1])) start--;
      let end = i;
      while (end < lines.length - 1 && end - i < MAX_CONTINUATION && continues(lines[end])) end++;
      const scope = new Map(loops.map((l) => [l.name, l.values]));
      for (const statement of shellStatements(lines.slice(start, end + 1).join('\n'), start + 1)) {
        const expanded = statement.flatMap((w) => expandSplit(w, vars));
        const rec = recognize(expanded);
        const record = rec ? toConfigRecord(expanded, rec, scope, source.path, written) : null;
        if (!record) continue;
        for (const w of statement) {
          if (w.open) sink.report('command/unterminated-quote', { file: source.path, line: w.line, column: 1 });
        }
        records.push(record);
      }
      i = end;
    } else if (ASSIGNMENT_LINE.test(line) && !continues(line)) {
      assign(line, i + 1, vars);
    }
    if (loops.length > 0 && DONE.test(lines[i] ?? '')) loops.pop();
  }
  return withShownConfigs(records, shown);
}

/** The code of a line's first character that is not a space or a tab (NaN for a blank line). */
function firstCharCode(line: string): number {
  let k = 0;
  while (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9) k++;
  return line.charCodeAt(k);
}

function continues(line: string | undefined): boolean {
  return line !== undefined && /\\\s*$/.test(line) && !/^\s*#/.test(line);
}

function expand(w: RawWord, vars: ReadonlyMap<string, string>): Word {
  // fields named, not spread: a spread of the expansion cost more than the rest of reading a word
  const { text, unresolved, dynamic } = expandWord(w.raw, vars);
  return { text, unresolved, dynamic, line: w.line, raw: w.raw };
}

/** An unquoted `$X` / `${X}` alone. */
const BARE_VARIABLE = /^\$(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)$/;

/**
 * A word expanded as the shell does: an unquoted variable alone whose value holds blanks is split
 * into words (`export bench_method="--num-prompts 20 --max-concurrency 1"` … `vllm bench serve
 * ${bench_method}` passes four arguments, not one flag named by the whole text).
 */
function expandSplit(w: RawWord, vars: ReadonlyMap<string, string>): Word[] {
  const word = expand(w, vars);
  if (!BARE_VARIABLE.test(w.raw) || !/\s/.test(word.text)) return [word];
  return word.text.split(/\s+/).filter((t) => t !== '').map((text) => ({ ...word, text, raw: text }));
}

function words(text: string, line: number, vars: ReadonlyMap<string, string>): Word[] {
  return shellStatements(text, line).flat().map((w) => expand(w, vars));
}

/** `export A=1 B="x y"`: literal values are remembered; anything computed forgets the name. */
function assign(line: string, lineNo: number, vars: Map<string, string>): void {
  for (const statement of shellStatements(line, lineNo)) {
    for (const w of statement) {
      const m = /^([A-Za-z_]\w*)=/.exec(w.raw);
      if (!m?.[1]) continue;
      const value = expandWord(w.raw.slice(m[0].length), vars);
      if (value.dynamic || value.unresolved.length > 0) vars.delete(m[1]);
      else vars.set(m[1], value.text);
    }
  }
}
