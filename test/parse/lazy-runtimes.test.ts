import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Every command and every scan worker loads the grammars: a package they import by value is paid
 * by all of them. The yaml package is loaded when a YAML file is first read (src/parse/yaml-runtime.ts);
 * only the sweep runner, loaded by `benchlens run` alone, imports it directly.
 */
describe('packages loaded on first use', () => {
  it('the grammars and the scan import the yaml package by type only', () => {
    const files = fg.sync(['grammars/**/*.ts', 'src/**/*.ts'], { cwd: ROOT, ignore: ['src/sweep/**', 'src/parse/yaml-runtime.ts'] });
    expect(files.length).toBeGreaterThan(100);
    const valueImports = files.filter((f) => /^import\s+(?!type\b)[^;]*from\s+'yaml'/m.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(valueImports).toEqual([]);
  });
});
