/**
 * Time stamps as the grammars write them, `2026-01-05T10:00:00`, or `01-05T10:00:00` for a log
 * that prints no year, or a time of day `10:00:00` for one that prints no date (SGLang's
 * `time_of_day`), packed into whole seconds and back. A series then holds 4 bytes a line for
 * them, where a string per second of log took about 48 (a week of a busy SGLang server: tens of MB).
 */

/** With the year (`YYYY-MM-DDTHH:MM:SS`), without it (`MM-DDTHH:MM:SS`), or a time of day alone (`HH:MM:SS`). */
export type StampShape = 'dated' | 'yearless' | 'clock';

/** A leap year, so a year-less `02-29` packs. */
const YEARLESS_YEAR = 2000;
const DATED_LENGTH = 19;
const YEARLESS_LENGTH = 14;
const CLOCK_LENGTH = 8;

/** The shape of `text`, or null when it is none of them (it is then stored like other strings). */
export function stampShape(text: string): StampShape | null {
  if (text.length === DATED_LENGTH && text.charCodeAt(4) === DASH && text.charCodeAt(10) === T) return 'dated';
  if (text.length === YEARLESS_LENGTH && text.charCodeAt(2) === DASH && text.charCodeAt(5) === T) return 'yearless';
  if (text.length === CLOCK_LENGTH && text.charCodeAt(2) === COLON && text.charCodeAt(5) === COLON) return 'clock';
  return null;
}

/**
 * Seconds since 1970 of a stamp of `shape` (since midnight for a time of day); null unless
 * unpackStamp gives `text` back exactly.
 */
export function packStamp(text: string, shape: StampShape): number | null {
  if (shape === 'clock') return packClock(text);
  const dated = shape === 'dated';
  if (text.length !== (dated ? DATED_LENGTH : YEARLESS_LENGTH)) return null;
  const at = dated ? 5 : 0;
  const year = dated ? digits(text, 0, 4) : YEARLESS_YEAR;
  const month = digits(text, at, 2);
  const day = digits(text, at + 3, 2);
  const hour = digits(text, at + 6, 2);
  const minute = digits(text, at + 9, 2);
  const second = digits(text, at + 12, 2);
  const separators =
    (!dated || text.charCodeAt(4) === DASH) &&
    text.charCodeAt(at + 2) === DASH &&
    text.charCodeAt(at + 5) === T &&
    text.charCodeAt(at + 8) === COLON &&
    text.charCodeAt(at + 11) === COLON;
  // years below 1000 are left out: Date.UTC reads 0–99 as 1900–1999, and the ISO form of others differs
  if (!separators || year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

/** `HH:MM:SS` as seconds since midnight; null unless it is a time of day written so. */
function packClock(text: string): number | null {
  if (text.length !== CLOCK_LENGTH || text.charCodeAt(2) !== COLON || text.charCodeAt(5) !== COLON) return null;
  const hour = digits(text, 0, 2);
  const minute = digits(text, 3, 2);
  const second = digits(text, 6, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  return hour * 3600 + minute * 60 + second;
}

/** The text of a packed stamp (computed, not through Date: a long timeline unpacks one a second of log). */
export function unpackStamp(seconds: number, shape: StampShape): string {
  const days = Math.floor(seconds / 86_400);
  const rest = seconds - days * 86_400;
  const clock = `${two(Math.floor(rest / 3600))}:${two(Math.floor(rest / 60) % 60)}:${two(rest % 60)}`;
  if (shape === 'clock') return clock;
  const [year, month, day] = civilFromDays(days);
  const date = `${two(month)}-${two(day)}T${clock}`;
  return shape === 'dated' ? `${year}-${date}` : date;
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** Year, month and day of a day count from 1970-01-01 (proleptic Gregorian; H. Hinnant's `civil_from_days`). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const DASH = 45;
const COLON = 58;
const T = 84;
const ZERO = 48;

/** The number written by `count` decimal digits at `start`; -1 when one of them is not a digit. */
function digits(text: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
