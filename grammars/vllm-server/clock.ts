/**
 * vLLM stamps lines `MM-DD HH:MM:SS` with no year. The year comes from a wrapper that has one
 * (docker `--timestamps`, `[YYYY-MM-DD …]`), corrected by one when the two straddle New Year
 * (the wrapper clock may be in another time zone). Without such a wrapper the year is the
 * base year 2000 (a leap year, so `02-29` stays a valid date), plus one for every roll-over
 * seen in the log: a month more than six months earlier than the previous stamp's month. Times
 * therefore stay monotonic across Dec → Jan.
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

  /** Observes a stamp (every stamped line, so roll-overs between stats lines are seen) and dates it. */
  date(stamp: Stamp, wrapper: WrapperStamp | null): { time: string; inferred: boolean } {
    if (this.#lastMonth !== null && stamp.month < this.#lastMonth - 6) this.#year++;
    this.#lastMonth = stamp.month;
    if (wrapper?.year != null) {
      let year = wrapper.year;
      if (wrapper.month === 1 && stamp.month === 12) year--;
      if (wrapper.month === 12 && stamp.month === 1) year++;
      return { time: iso(year, stamp), inferred: false };
    }
    return { time: iso(this.#year, stamp), inferred: true };
  }
}

function iso(year: number, s: Stamp): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${p(s.month)}-${p(s.day)}T${s.time}`;
}
