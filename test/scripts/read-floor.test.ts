import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** The bench's Node floor must really read every line, or its reference time means nothing. */
describe('the Node floor of npm run bench', () => {
  it('counts every line of every file in a folder, on every core', () => {
    const folder = path.join(ROOT, 'fixtures/_suites');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/scripts/bench/read-floor.js'), folder], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    let lines = 0;
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) for (const b of readFileSync(p)) if (b === 10) lines++;
      }
    };
    walk(folder);
    expect(lines).toBeGreaterThan(100);
    expect(Number(r.stdout.trim())).toBe(lines);
  });
});
