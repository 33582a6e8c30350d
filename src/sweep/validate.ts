import { ConfigError } from '../core/errors.js';
import type { ArgMap, ArgValue } from './types.js';
import { setCell } from '../core/cells.js';

/** Checks on raw YAML/JSON values; each failure names the key path (`timeouts.startup`). */
export type Raw = unknown;

export function fail(path: string, problem: string): never {
  throw new ConfigError(`sweep file: ${path || '(top level)'}: ${problem}`);
}

export function isObject(v: Raw): v is Record<string, Raw> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function object(v: Raw, path: string): Record<string, Raw> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) fail(path, `expected a mapping, found ${describe(v)}`);
  return v;
}

export function string(v: Raw, path: string): string {
  if (typeof v !== 'string' || v === '') fail(path, `expected a non-empty string, found ${describe(v)}`);
  return v;
}

export function positiveNumber(v: Raw, path: string, integer: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
    fail(path, `expected a positive ${integer ? 'integer' : 'number'}, found ${describe(v)}`);
  }
  return v;
}

/** A command: a string of words (split on spaces, never given to a shell) or a list of words. */
export function command(v: Raw, path: string): string[] {
  if (typeof v === 'string' && v.trim() !== '') return v.trim().split(/\s+/);
  if (Array.isArray(v) && v.length > 0 && v.every((w) => typeof w === 'string' && w !== '')) return v as string[];
  return fail(path, `expected a command (a string or a list of strings), found ${describe(v)}`);
}

/** Flag maps: keys are flag names, values scalars, lists or nested mappings (JSON flags). */
export function argMap(v: Raw, path: string): ArgMap {
  const out: Record<string, ArgValue> = {};
  for (const [key, value] of Object.entries(object(v, path))) setCell(out, key, argValue(value, `${path}.${key}`));
  return out;
}

function argValue(v: Raw, path: string): ArgValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) fail(path, `expected a finite number, found ${describe(v)}`);
    return v;
  }
  if (Array.isArray(v)) return v.map((x, i) => argValue(x, `${path}[${i}]`));
  if (isObject(v)) return argMap(v, path);
  return fail(path, `unsupported value ${describe(v)}`);
}

export function stringMap(v: Raw, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(object(v, path))) {
    if (typeof value === 'string') setCell(out, key, value);
    else if (typeof value === 'number' || typeof value === 'boolean') setCell(out, key, String(value));
    else fail(`${path}.${key}`, `expected a string, number or boolean, found ${describe(value)}`);
  }
  return out;
}

export function describe(v: Raw): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** Top-level and section keys may be written with `-` or `_`; unknown ones are errors. */
export function knownKeys(obj: Record<string, Raw>, allowed: readonly string[], path: string): Record<string, Raw> {
  const out: Record<string, Raw> = {};
  for (const [key, value] of Object.entries(obj)) {
    const norm = key.replaceAll('-', '_');
    if (!allowed.includes(norm)) fail(path ? `${path}.${key}` : key, `unknown key (allowed: ${allowed.join(', ')})`);
    setCell(out, norm, value);
  }
  return out;
}
