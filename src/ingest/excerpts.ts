import type { TextSource } from '../core/grammar.js';
import { MPI_TAG } from './capture-prefix.js';

/**
 * Excerpts of other files gathered into one, as people summarize a folder of logs:
 *
 * - `tail -n 40 logs/*.log` (or `head`) prints each file under a header, `==> logs/a.log <==`;
 * - `grep -A 30 'Serving Benchmark Result' logs/*.log` puts the file's name before each line it
 *   prints, `logs/a.log:` before a matching line and `logs/a.log-` before a line of context
 *   (`logs/a.log:12:` and `logs/a.log-13-` with `-n`), and `--` between groups of lines; a few
 *   lines another writer put inside a group (a server's, tee'd into the summary) are passed over.
 *
 * Each file's excerpt is read as that file's lines (without grep's prefixes): the blocks of one
 * file are not read with the preamble, command or label of another, and the runs it holds are
 * labelled by the file they came from, whose path names their configuration as a file's own does.
 * An MPI launcher's tag after grep's prefix (`[1,0]<stdout>:`, `mpirun --tag-output`) goes too.
 */
export interface Excerpt {
  /** The file the lines came from, as the header or prefix names it. */
  readonly origin: string;
  /** Its lines, as that file had them, each at its own line of the gathering file. */
  readonly source: TextSource;
  readonly lineOf: (line: number) => number;
}

export interface Excerpts {
  readonly excerpts: readonly Excerpt[];
  /** The gathering file without the excerpts' lines (blank in their place), headers and separators: its own text. */
  readonly rest: TextSource;
  /** The line of the first header or prefixed line (1-based). */
  readonly firstLine: number;
}

const TAIL_HEADER = /^==> (.+) <==\s*$/;
const FENCE = /^\s{0,3}(?:```|~~~)/;
/** A file's name as grep prints it: no space or colon, and a dot or slash, so a log level (`INFO:`) or a scheme (`https:`) is none. */
const FILE_NAME = /^[^\s:]*[./][^\s:]*$/;
const LINE_NUMBER = /^\d+[:-]/;
const GREP_SEPARATOR = '--';
/** The fewest lines of a group: a block has more, and two lines `a.b: 1` and `a.b-c: 2` are as likely a YAML file's. */
const MIN_GROUP_LINES = 3;

/** The excerpts gathered in `source`, or null when it holds none (most files: one pass over the line starts). */
export function excerptsOf(source: TextSource): Excerpts | null {
  const lines = source.lines;
  if (!lines.some(mayStartExcerpt)) return null;
  const origin: (string | null)[] = new Array(lines.length).fill(null);
  const text: string[] = [...lines];
  const covered = new Uint8Array(lines.length);
  let found = markTailSections(lines, origin, covered);
  found = markGrepGroups(lines, origin, text, covered) || found;
  if (!found) return null;
  const byOrigin = new Map<string, number[]>();
  origin.forEach((name, i) => {
    if (name === null) return;
    const at = byOrigin.get(name);
    if (at) at.push(i);
    else byOrigin.set(name, [i]);
  });
  const excerpts = [...byOrigin].map(([name, indices]) => ({ origin: name, ...partOf(source, text, indices) }));
  const restLines = lines.map((l, i) => (covered[i] === 1 ? '' : l));
  const overwritten = source.overwritten ? new Map([...source.overwritten].filter(([i]) => covered[i] !== 1)) : undefined;
  const rest: TextSource = { ...source, lines: restLines, ...(overwritten ? { overwritten } : {}) };
  return { excerpts, rest, firstLine: covered.indexOf(1) + 1 };
}

/** A `tail` header or a grep match line: the lines an excerpt can start from. */
function mayStartExcerpt(line: string): boolean {
  return line.charCodeAt(0) === EQUALS ? TAIL_HEADER.test(line) : matchName(line) !== null;
}

/** `tail`/`head` headers: each file's lines run to the next header, or the end of the fenced block it is in. */
function markTailSections(lines: readonly string[], origin: (string | null)[], covered: Uint8Array): boolean {
  let found = false;
  let inFence = false;
  let current: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.charCodeAt(0) === EQUALS && line.startsWith('==> ')) {
      const m = TAIL_HEADER.exec(line);
      if (m) {
        current = (m[1] as string).trim();
        covered[i] = 1;
        // the blank line tail prints before every header but the first
        if (i > 0 && origin[i - 1] !== null && (lines[i - 1] as string).trim() === '') origin[i - 1] = null;
        found = true;
        continue;
      }
    }
    if (FENCE.test(line)) {
      inFence = !inFence;
      if (!inFence) current = null;
      continue;
    }
    if (current !== null) {
      origin[i] = current;
      covered[i] = 1;
    }
  }
  return found;
}

/**
 * grep's groups: a line `name:` and a line `name-` next to it (a match and its context, as
 * `-A`/`-B`/`-C` print them), the group running over the lines with that name's prefix, three
 * lines at least; `--` lines between groups. With `-n` every line of a group has its number. Up to
 * MAX_FOREIGN_LINES lines of another writer inside a group (a server's line tee'd into the summary)
 * are passed over: the group goes on after them, those lines left to the rest of the file.
 * Lines of only matches (no context) are left as they are: a name before a colon is also a YAML
 * key's or a warning's, and without context they hold no block to read.
 */
function markGrepGroups(lines: readonly string[], origin: (string | null)[], text: string[], covered: Uint8Array): boolean {
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    if (origin[i] !== null) continue;
    const name = matchName(lines[i] as string);
    if (name === null) continue;
    const members = groupAround(lines, origin, i, name);
    const last = members.at(-1) ?? i;
    let context = false;
    let numbered = true;
    for (const j of members) {
      const line = lines[j] as string;
      if (line.charCodeAt(name.length) === DASH) context = true;
      if (numbered && lineNumberLength(line, name) === 0) numbered = false;
    }
    // (no group: its lines are passed over at once, or a long run of `host.name:` lines, as pdsh
    // prints, would be walked again from each of them)
    if (!context || members.length < MIN_GROUP_LINES) {
      i = last;
      continue;
    }
    for (const j of members) {
      origin[j] = name;
      covered[j] = 1;
      text[j] = withoutPrefix(lines[j] as string, name, numbered);
    }
    const first = members[0] ?? i;
    if (first > 0 && lines[first - 1] === GREP_SEPARATOR) covered[first - 1] = 1;
    if (last + 1 < lines.length && lines[last + 1] === GREP_SEPARATOR) covered[last + 1] = 1;
    found = true;
    i = last;
  }
  return found;
}

/** Lines of another writer a group is read across, at most, in a row. */
const MAX_FOREIGN_LINES = 3;

/** The lines (0-based, ascending) of the group of `name` around line `i`: its prefixed lines, and across a few foreign ones. */
function groupAround(lines: readonly string[], origin: readonly (string | null)[], i: number, name: string): number[] {
  const isMember = (j: number): boolean => j >= 0 && j < lines.length && origin[j] === null && prefixed(lines[j] as string, name) !== null;
  return [...membersFrom(i - 1, -1, isMember, lines).reverse(), i, ...membersFrom(i + 1, 1, isMember, lines)];
}

/** The group's lines from `j` on in direction `step`, read across up to MAX_FOREIGN_LINES others in a row (never across grep's `--`). */
function membersFrom(j: number, step: 1 | -1, isMember: (j: number) => boolean, lines: readonly string[]): number[] {
  const members: number[] = [];
  const inside = (k: number): boolean => k >= 0 && k < lines.length;
  while (inside(j)) {
    if (isMember(j)) {
      members.push(j);
      j += step;
      continue;
    }
    let k = j;
    while (inside(k) && Math.abs(k - j) < MAX_FOREIGN_LINES && !isMember(k) && lines[k] !== GREP_SEPARATOR) k += step;
    if (k === j || !isMember(k)) break;
    j = k;
  }
  return members;
}

/** The file name of a grep match line (`name:text`), or null. */
function matchName(line: string): string | null {
  const c = line.charCodeAt(0);
  if (c <= SPACE || c === QUOTE || c === BRACE || c === BRACKET) return null;
  for (let k = 1; k < line.length; k++) {
    const ch = line.charCodeAt(k);
    if (ch <= SPACE) return null;
    if (ch === COLON) {
      const name = line.slice(0, k);
      return FILE_NAME.test(name) ? name : null;
    }
  }
  return null;
}

/** The separator after `name` when `line` is one of grep's lines of that file (`name:` or `name-`), else null. */
function prefixed(line: string, name: string): number | null {
  if (!line.startsWith(name)) return null;
  const sep = line.charCodeAt(name.length);
  return sep === COLON || sep === DASH ? sep : null;
}

/** A line of grep's without its file's name, its line number (`numbered`: `-n`) and an MPI launcher's tag. */
function withoutPrefix(line: string, name: string, numbered: boolean): string {
  const rest = line.slice(name.length + 1 + (numbered ? lineNumberLength(line, name) : 0));
  const tag = MPI_TAG.exec(rest);
  return tag ? rest.slice(tag[0].length) : rest;
}

/** With `-n`, the length of the line number after the name and its separator (the same as the name's: `a.log:12:`, `a.log-13-`); else 0. */
function lineNumberLength(line: string, name: string): number {
  const n = LINE_NUMBER.exec(line.slice(name.length + 1));
  return n && n[0].charCodeAt(n[0].length - 1) === line.charCodeAt(name.length) ? n[0].length : 0;
}

/** The lines at `indices` (0-based, ascending) as a source of their own. */
function partOf(source: TextSource, text: readonly string[], indices: readonly number[]): { source: TextSource; lineOf: (line: number) => number } {
  const lines = indices.map((i) => text[i] as string);
  let overwritten: Map<number, string> | undefined;
  if (source.overwritten) {
    indices.forEach((i, k) => {
      const head = source.overwritten?.get(i);
      if (head !== undefined) (overwritten ??= new Map()).set(k, head);
    });
  }
  const last = indices.at(-1) === source.lines.length - 1 && source.unterminated === true;
  const part: TextSource = { path: source.path, lines, ...(last ? { unterminated: true } : {}), ...(overwritten ? { overwritten } : {}) };
  return { source: part, lineOf: (n) => (indices[n - 1] ?? indices.at(-1) ?? n - 1) + 1 };
}

const SPACE = 32;
const QUOTE = 34;
const DASH = 45;
const COLON = 58;
const EQUALS = 61;
const BRACKET = 91;
const BRACE = 123;
