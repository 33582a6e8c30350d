/** Shell variables known at a point of the file: literal values only. */
export type Vars = ReadonlyMap<string, string>;

/** A word after quote removal and variable expansion. */
export interface Expanded {
  readonly text: string;
  /** Names of `$VAR`s that had no literal value: their text is kept as written. */
  readonly unresolved: readonly string[];
  /** True when the word has a command substitution (`$(...)` or backquotes): not a literal. */
  readonly dynamic: boolean;
}

/** A character that quotes, escapes or expands. */
const SHELL_SYNTAX = /['"\\$`]/;
const VAR = /^\$(?:\{([A-Za-z_]\w*)(?:(:?[-=])([^}]*))?\}|([A-Za-z_]\w*))/;

/**
 * Removes quotes and escapes the way the shell does and replaces `$VAR` / `${VAR}` /
 * `${VAR:-default}` by literal values from earlier assignments; single quotes expand nothing.
 */
export function expandWord(raw: string, vars: Vars): Expanded {
  // most words of a command have nothing to remove or expand (`--max-concurrency`, `16`)
  if (!SHELL_SYNTAX.test(raw)) return { text: raw, unresolved: [], dynamic: false };
  let out = '';
  const unresolved: string[] = [];
  let dynamic = false;
  let i = 0;
  let quote: '"' | null = null;
  while (i < raw.length) {
    const c = raw[i] ?? '';
    if (quote === null && c === "'") {
      const end = raw.indexOf("'", i + 1);
      out += raw.slice(i + 1, end < 0 ? raw.length : end);
      i = end < 0 ? raw.length : end + 1;
      continue;
    }
    if (c === '"') {
      quote = quote === null ? '"' : null;
      i++;
      continue;
    }
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === '\n') i += 2;
      else if (next === '\r' && raw[i + 2] === '\n') i += 3;
      else if (next !== undefined && (quote === null || '"\\$`'.includes(next))) {
        out += next;
        i += 2;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    if (c === '`' || (c === '$' && raw[i + 1] === '(')) dynamic = true;
    if (c === '$') {
      const m = VAR.exec(raw.slice(i));
      if (m) {
        const name = m[1] ?? m[4] ?? '';
        const value = vars.get(name) ?? (m[2] !== undefined ? m[3] : undefined);
        if (value === undefined) unresolved.push(name);
        out += value ?? m[0];
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return { text: out, unresolved, dynamic };
}
