/**
 * vLLM stamps lines `MM-DD HH:MM:SS` with no year. The year comes from a wrapper that has one
 * (docker `--timestamps`, `[YYYY-MM-DD …]`) or from a head that prints the date (a Python logging
 * configuration of the user's own), corrected by one when the two straddle New Year (the wrapper
 * clock may be in another time zone). Without such a date the year is the base year 2000 (a leap
 * year, so `02-29` stays a valid date), plus one for every roll-over seen in the log: a month more
 * than six months earlier than the previous stamp's month. Times therefore stay monotonic across
 * Dec → Jan.
 *
 * A log that prints the date on some lines only (NVIDIA NIM's own lines, a pipe that stamps some)
 * states its year there: a year-less stamp after such a line takes the year of the one nearest
 * before it, moved by the roll-overs seen since. Stamps before the first such line are dated
 * `inferred`, and `yearsBeforeFirstDate` says at the end by how much their year is off.
 */
export const BASE_YEAR = 2000;

export interface Stamp {
  readonly month: number;
  readonly day: number;
  readonly time: string;
}

export interface WrapperStamp extends Stamp {
  readonly year: number | null;
}

export class LogClock {
  #year = BASE_YEAR;
  #lastMonth: number | null = null;
  /** The year the last dated line gave less the year the roll-overs give it: null before any dated line. */
  #shift: number | null = null;
  /** The same for the first dated line: what the stamps dated before it lack. */
  #firstShift: number | null = null;

  /** Observes a stamp (every stamped line, so roll-overs between stats lines are seen) and dates it. */
  date(stamp: Stamp, wrapper: WrapperStamp | null): { time: string; inferred: boolean } {
    if (this.#lastMonth !== null && stamp.month < this.#lastMonth - 6) this.#year++;
    this.#lastMonth = stamp.month;
    if (wrapper?.year != null) {
      let year = wrapper.year;
      if (wrapper.month === 1 && stamp.month === 12) year--;
      if (wrapper.month === 12 && stamp.month === 1) year++;
      this.#shift = year - this.#year;
      this.#firstShift ??= this.#shift;
      return { time: iso(year, stamp), inferred: false };
    }
    if (this.#shift !== null) return { time: iso(this.#year + this.#shift, stamp), inferred: false };
    return { time: iso(this.#year, stamp), inferred: true };
  }

  /** Years to add to every stamp dated `inferred` (all before the first dated line); null when no line gave a year. */
  get yearsBeforeFirstDate(): number | null {
    return this.#firstShift;
  }
}

function iso(year: number, s: Stamp): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${p(s.month)}-${p(s.day)}T${s.time}`;
}
