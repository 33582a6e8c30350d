/**
 * SGLang's log prefix: `[%Y-%m-%d %H:%M:%S{ DPn}{ TPn}{ EPn}{ PPn}] ` (scheduler processes carry
 * ranks, the tokenizer/HTTP process none), `[%m-%d %H:%M:%S …]` in some 2026 builds, `[%H:%M:%S …]`
 * (no date at all) in builds of about Aug–Oct 2024 and some 2026 ones, an optional
 * `INFO file.py:123: ` after it (2026), and nothing at all in early 2024 builds; Ray's actor prefix
 * before it when the engine runs as a Ray actor (its pid kept as `pid`).
 */
const PREFIX = /^\[(?:(?:(\d{4})-)?(\d\d-\d\d) )?(\d\d:\d\d:\d\d)(?:[.,]\d+)?((?: [A-Z_]+\d+)*)\]\s?/;
const LEVEL = /^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) [\w.-]+\.py:\d+: /;

export interface LogLine {
  /** The message after the prefix (and level), as printed. */
  readonly message: string;
  readonly year: string | null;
  /** `MM-DD` and `HH:MM:SS`; null when the line has no timestamp (`date` alone when its prefix prints none). */
  readonly date: string | null;
  readonly clock: string | null;
  /** `{ tp_rank: 0, dp_rank: 1 }` from ` DP1 TP0`. */
  readonly ranks: Readonly<Record<string, number>>;
  readonly level: string | undefined;
}

export function splitPrefix(line: string): LogLine {
  const actor = line.charCodeAt(0) === OPEN_PAREN ? RAY_ACTOR.exec(line) : null;
  const text = actor ? line.slice(actor[0].length) : line;
  const m = PREFIX.exec(text);
  if (!m) return { message: text, year: null, date: null, clock: null, ranks: actor ? pidOf(actor[1]) : {}, level: undefined };
  const ranks = actor ? { ...ranksOf(m[4] ?? ''), ...pidOf(actor[1]) } : ranksOf(m[4] ?? '');
  let message = text.slice(m[0].length);
  const level = LEVEL.exec(message);
  if (level) message = message.slice(level[0].length);
  return { message, year: m[1] ?? null, date: m[2] ?? null, clock: m[3] ?? null, ranks, level: level?.[0].split(' ')[0] };
}

const OPEN_PAREN = 40;
/**
 * Ray's prefix of an actor's lines (`(SGLangEngine pid=35555) `, `(… pid=111711, ip=10.15.36.1) `):
 * an engine run as a Ray actor by an RL framework. Its pid tells the engines of one log apart.
 */
const RAY_ACTOR = /^\((?:[^()\n]*? )?pid=(\d+)(?:, ip=[\w.:]+)?\)\s?/;

function pidOf(pid: string | undefined): Readonly<Record<string, number>> {
  return pid === undefined ? {} : { pid: Number(pid) };
}

/** Rank groups seen (` TP0`, ` DP1 TP0`…): a log repeats a handful of them on every line. */
const RANKS = new Map<string, Readonly<Record<string, number>>>();
const MAX_RANK_GROUPS = 256;

/** `{ dp_rank: 1, tp_rank: 0 }` from ` DP1 TP0`, shared by every line with the same group (frozen). */
function ranksOf(group: string): Readonly<Record<string, number>> {
  const known = RANKS.get(group);
  if (known) return known;
  const ranks: Record<string, number> = {};
  for (const r of group.trim().split(' ')) {
    const rm = /^([A-Z_]+?)(\d+)$/.exec(r);
    if (rm?.[1] && rm[2]) ranks[`${rm[1].toLowerCase()}_rank`] = Number(rm[2]);
  }
  Object.freeze(ranks);
  if (RANKS.size < MAX_RANK_GROUPS) RANKS.set(group, ranks);
  return ranks;
}
