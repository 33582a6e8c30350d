import type { ArgMap, ArgValue } from './types.js';

/**
 * Flag map → argument array, never a shell string: `{tensor-parallel-size: 2}` → `--tensor-parallel-size 2`,
 * `true` → the bare flag, `false`/`null` → omitted, a list → one flag followed by each value,
 * a mapping → JSON (how vLLM takes `--speculative-config`).
 */
export function toArgv(args: ArgMap): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    const flag = key.startsWith('-') ? key : `--${key.replaceAll('_', '-')}`;
    if (value === null || value === false) continue;
    if (value === true) out.push(flag);
    else if (Array.isArray(value)) out.push(flag, ...value.map(scalar));
    else out.push(flag, scalar(value));
  }
  return out;
}

function scalar(value: ArgValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Later maps override earlier ones key by key (a variant over the common server arguments). */
export function mergeArgs(...maps: readonly ArgMap[]): ArgMap {
  // spread, not Object.assign: a key named __proto__ stays a key
  return maps.reduce<ArgMap>((all, m) => ({ ...all, ...m }), {});
}

/** Quotes one word for display (dry-run, sbatch); commands themselves are always argument arrays. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function displayCommand(argv: readonly string[], env: Readonly<Record<string, string>> = {}): string {
  const prefix = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...prefix, ...argv.map(shellQuote)].join(' ');
}
