import { readNumber } from '../../src/parse/values.js';
import { shellWords } from '../_shared/perf-metrics/cli-command.js';
import type { ConsoleItem } from './visitor.js';

const CONTINUED = /\s*\\$/;

/**
 * The command after `CLI Command:` and the lines the terminal wrapped it onto, or a pasted shell
 * command and the lines its trailing backslashes continue it onto (a line without one ends it: the
 * shell ran no more, whatever flags the next line holds).
 */
export function commandWords(items: readonly ConsoleItem[], index: number): { words: string[]; consumed: number } {
  const start = items[index];
  const echoed = start?.kind !== 'table' && start?.text.startsWith('CLI Command:') === true;
  let text = start && start.kind !== 'table' ? start.text.replace(/^(?:CLI Command:|\$)\s*/, '') : '';
  let line = start?.line ?? 0;
  let consumed = 0;
  for (let j = index + 1; j < items.length; j++) {
    const next = items[j];
    if (!next || next.kind !== 'other' || next.line !== line + 1 || next.text === '') break;
    if (echoed ? /^[A-Z][\w ]*:/.test(next.text) : !CONTINUED.test(text)) break;
    text = `${text.replace(CONTINUED, '')} ${next.text}`;
    line = next.line;
    consumed++;
  }
  return { words: shellWords(text.replace(CONTINUED, '')), consumed };
}

/**
 * GenAI-Perf's log of the Perf Analyzer command it runs (`… [INFO] genai_perf.wrapper:163 - Running
 * Perf Analyzer : 'perf_analyzer -m llama-3 … --concurrency-range 1 …'`), printed before its
 * table: the words of that command, or null for any other line.
 */
export function perfAnalyzerWords(text: string): string[] | null {
  const m = /Running Perf Analyzer\s*:\s*'([^']*)'/.exec(text);
  return m?.[1] === undefined ? null : shellWords(m[1]);
}

/** `Benchmark Duration: 10.60 sec` → seconds; null when the value is not a number. */
export function durationSeconds(text: string): number | null {
  const m = /Benchmark Duration:\s*([\d.,]+)\s*(ms|s|sec|seconds)?\s*$/.exec(text);
  if (!m?.[1]) return null;
  const n = readNumber(m[1], { thousands: true }).value;
  if (n === null) return null;
  return m[2] === 'ms' ? n / 1000 : n;
}
