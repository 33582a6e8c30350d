/**
 * A short label for a run that has none, made from the command that produced it: the flags that
 * tell this command apart from the other commands of its file (`--random-input-len 4096`,
 * `--speculative-config {...}`), not the whole command line repeated on every row. A label names a
 * configuration (schema.md: a sweep variant's name), the same at every load point: the flags that
 * set the load (`--max-concurrency 4 --num-prompts 40`, which the run's own columns hold) and those
 * that only locate the server or the output are not part of it.
 */

import { isSecretFlag } from './flags.js';

/** The longest label a command gives; longer ones are cut at a flag boundary. */
export const MAX_COMMAND_LABEL = 80;

/** Flags that locate the server or the output (and `python -m module`), never the measured configuration. */
const NOISE = new Set([
  'm',
  'host', 'port', 'base-url', 'endpoint', 'model', 'model-path', 'served-model-name', 'tokenizer', 'trust-remote-code', 'seed',
  'save-result', 'save-detailed', 'result-dir', 'result-filename', 'output-file', 'output-details', 'dataset-path',
  'disable-tqdm', 'disable-log-requests', 'disable-log-stats', 'uvicorn-log-level', 'download-dir', 'output-json',
]);

/** Flags that set a run's load point, the axis a sweep steps along (the run's columns hold them); a static batch's size is a latency benchmark's. */
const LOAD = new Set(['max-concurrency', 'concurrency', 'request-rate', 'rate', 'num-prompts', 'num-requests', 'request-count', 'batch-size']);

/** Whether a flag (its key: `max-concurrency`) may name a configuration in a label. */
export function describesConfiguration(key: string): boolean {
  // (a credential, `--api-key`, names none, and a label is shared with the table)
  return !NOISE.has(key) && !LOAD.has(key) && !isSecretFlag(key.replaceAll('-', '_'), key);
}

export interface Option {
  readonly key: string;
  readonly text: string;
}

/**
 * `command` shortened to its distinguishing flags; `siblings` are the file's commands of the same
 * kind. Null when it has flags and none sets it apart as a configuration (a sweep that varies only
 * the load); a command with no other is named by the flags that name a configuration.
 */
export function commandLabel(command: string, siblings: readonly string[]): string | null {
  return commandLabeler(siblings)(command);
}

/**
 * commandLabel for many commands of one file: the siblings are read once, not once per run (a
 * sweep log of 10,000 commands and runs read every command for every run: minutes).
 */
export function commandLabeler(siblings: readonly string[]): (command: string) => string | null {
  const copies = new Map<string, number>();
  /** How many siblings give each flag each value (the last one a command gives it, as a Map of its options keeps). */
  const values = new Map<string, Map<string, number>>();
  for (const s of siblings) {
    copies.set(s, (copies.get(s) ?? 0) + 1);
    for (const [k, text] of optionMap(optionsOf(s))) {
      let byText = values.get(k);
      if (!byText) values.set(k, (byText = new Map()));
      byText.set(text, (byText.get(text) ?? 0) + 1);
    }
  }
  return (command) => {
    const options = optionsOf(command);
    if (options.length === 0) return cap(command);
    const own = optionMap(options);
    // the siblings other than this command's copies, and of those, the ones that give an option exactly as it does
    const copiesOfThis = copies.get(command) ?? 0;
    const others = siblings.length - copiesOfThis;
    const naming = options.filter((o) => describesConfiguration(o.key));
    const differing = naming.filter((o) => {
      const alike = (values.get(o.key)?.get(o.text) ?? 0) - (own.get(o.key) === o.text ? copiesOfThis : 0);
      return alike < others;
    });
    // nothing sets it apart from other commands (a sweep of the load alone): no label; a command
    // with no other (or only copies of itself) is named by what it sets
    const kept = differing.length > 0 || others > 0 ? differing : naming;
    return kept.length > 0 ? join(kept) : null;
  };
}

function optionMap(options: readonly Option[]): Map<string, string> {
  return new Map(options.map((o) => [o.key, o.text]));
}

/** The options of a command line: `--flag value`, `--flag=value` and bare `--flag`. */
export function optionsOf(command: string): Option[] {
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
    // every value up to the next flag: `--batch-size 4 8` (nargs='+') names both, never the first alone
    let j = i + 1;
    while (j < words.length && !isFlag(words[j] ?? '') && (j === i + 1 || NUMBER.test(words[j] ?? ''))) j++;
    const values = words.slice(i + 1, j).map(unquote);
    out.push({ key: key(w), text: [w, ...values].join(' ') });
    i = j - 1;
  }
  return out;
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;

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
