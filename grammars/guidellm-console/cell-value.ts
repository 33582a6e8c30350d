import { readNumber } from '../../src/parse/values.js';

/**
 * A cell's number; null for no value (GuideLLM writes `--` for a missing number and `N/A` for a
 * missing time; `-` and an empty cell are taken the same), `bad` for anything else.
 */
export function readCell(cell: string): number | null | 'bad' {
  if (cell === '' || /^-+$/.test(cell)) return null;
  const n = readNumber(cell, { thousands: true });
  return n.ok && n.rest === '' ? n.value : 'bad';
}
