import { readNumber } from '../../src/parse/values.js';
import { shellWords } from '../_shared/perf-metrics/cli-command.js';
import type { ConsoleItem } from './visitor.js';

/** The command after `CLI Command:` and its wrapped continuation lines. */
export function commandWords(items: readonly ConsoleItem[], index: number): { words: string[]; consumed: number } {
  const start = items[index];
  let text = start && start.kind !== 'table' ? start.text.replace(/^(?:CLI Command:|\$)\s*/, '') : '';
  let line = start?.line ?? 0;
  let consumed = 0;
  for (let j = index + 1; j < items.length; j++) {
    const next = items[j];
    if (!next || next.kind !== 'other' || next.line !== line + 1 || /^[A-Z][\w ]*:/.test(next.text) || next.text === '') break;
    text += ` ${next.text}`;
    line = next.line;
    consumed++;
  }
  return { words: shellWords(text), consumed };
}

/** `Benchmark Duration: 10.60 sec` → seconds; null when the value is not a number. */
export function durationSeconds(text: string): number | null {
  const m = /Benchmark Duration:\s*([\d.,]+)\s*(ms|s|sec|seconds)?\s*$/.exec(text);
  if (!m?.[1]) return null;
  const n = readNumber(m[1], { thousands: true }).value;
  if (n === null) return null;
  return m[2] === 'ms' ? n / 1000 : n;
}
