/**
 * A short label for a run that has none, made from the command that produced it: the flags that
 * tell this command apart from the other commands of its file (`--max-concurrency 4 --num-prompts
 * 40`), not the whole command line repeated on every row.
 */

/** The longest label a command gives; longer ones are cut at a flag boundary. */
export const MAX_COMMAND_LABEL = 80;

/** Flags that locate the server or the output (and `python -m module`), never the measured configuration. */
const NOISE = new Set([
  'm',
  'host', 'port', 'base-url', 'endpoint', 'model', 'served-model-name', 'tokenizer', 'trust-remote-code', 'seed',
  'save-result', 'save-detailed', 'result-dir', 'result-filename', 'output-file', 'output-details', 'dataset-path',
  'disable-tqdm', 'disable-log-requests', 'disable-log-stats', 'uvicorn-log-level', 'download-dir',
]);

interface Option {
  readonly key: string;
  readonly text: string;
}

/** `command` shortened to its distinguishing flags; `siblings` are the file's commands of the same kind. */
export function commandLabel(command: string, siblings: readonly string[]): string {
  const options = optionsOf(command);
  if (options.length === 0) return cap(command);
  const others = siblings.filter((s) => s !== command).map((s) => new Map(optionsOf(s).map((o) => [o.key, o.text])));
  const differing = options.filter((o) => others.some((m) => m.get(o.key) !== o.text));
  const kept = differing.length > 0 ? differing : options.filter((o) => !NOISE.has(o.key));
  return join(kept.length > 0 ? kept : options);
}

/** The options of a command line: `--flag value`, `--flag=value` and bare `--flag`. */
function optionsOf(command: string): Option[] {
  const words = splitWords(command);
  const out: Option[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (!isFlag(w)) continue;
    const eq = w.indexOf('=');
    if (eq > 0) {
      out.push({ key: key(w.slice(0, eq)), text: `${w.slice(0, eq)} ${unquote(w.slice(eq + 1))}` });
      continue;
    }
    const next = words[i + 1];
    if (next !== undefined && !isFlag(next)) {
      out.push({ key: key(w), text: `${w} ${unquote(next)}` });
      i++;
    } else out.push({ key: key(w), text: w });
  }
  return out;
}

function isFlag(word: string): boolean {
  return /^--?[A-Za-z]/.test(word);
}

function key(flag: string): string {
  return flag.replace(/^-+/, '').replaceAll('_', '-').toLowerCase();
}

/** Splits at spaces outside single or double quotes (the command text keeps the shell's quoting). */
function splitWords(text: string): string[] {
  return text.match(/(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"]+)+/g) ?? [];
}

function unquote(value: string): string {
  return value.replace(/^'([\s\S]*)'$|^"([\s\S]*)"$/, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? '');
}

/** Joins whole options up to the cap; a single over-long option is cut. */
function join(options: readonly Option[]): string {
  let out = '';
  for (const o of options) {
    const next = out === '' ? o.text : `${out} ${o.text}`;
    if (next.length > MAX_COMMAND_LABEL) return out === '' ? cap(o.text) : `${out} ...`;
    out = next;
  }
  return out;
}

function cap(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > MAX_COMMAND_LABEL ? `${t.slice(0, MAX_COMMAND_LABEL - 3)}...` : t;
}
