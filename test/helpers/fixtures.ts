import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

export interface FixtureCase {
  readonly format: string;
  readonly name: string;
  readonly dir: string;
  readonly input: string;
}

/** Every `fixtures/<format>/<case>/input.*` (folders starting with `_` are suites, not cases). */
export function fixtureCases(): FixtureCase[] {
  const cases: FixtureCase[] = [];
  for (const format of readdirSync(FIXTURES).sort()) {
    if (format.startsWith('_') || !statSync(path.join(FIXTURES, format)).isDirectory()) continue;
    for (const name of readdirSync(path.join(FIXTURES, format)).sort()) {
      const dir = path.join(FIXTURES, format, name);
      if (!statSync(dir).isDirectory()) continue;
      const input = readdirSync(dir).find((f) => f.startsWith('input.'));
      if (input) cases.push({ format, name, dir, input: path.join(dir, input) });
    }
  }
  return cases;
}
