import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/sglang-bench-multiturn/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromText } from '../../../src/ingest/read.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const FIXTURES = ['basic', 'layout-2024-original', 'layout-2025-round-barrier', 'layout-2026-itl-fork'];

/** Lines written into a summary by another writer. */
const GAPS: Readonly<Record<string, readonly string[]>> = {
  'a blank line': [''],
  "a Python warning's two lines": ['/usr/lib/python3/site-packages/urllib3/connectionpool.py:1100: InsecureRequestWarning: Unverified HTTPS request', '  warnings.warn('],
};

function fixtureLines(name: string): string[] {
  const dir = `fixtures/sglang-bench-multiturn/${name}`;
  const file = ['input.log', 'input.txt'].map((f) => `${dir}/${f}`).find((f) => {
    try {
      readFileSync(f);
      return true;
    } catch {
      return false;
    }
  }) as string;
  return readFileSync(file, 'utf8').replace(/\r/g, '').split('\n');
}

describe('a multi-turn summary with a blank or foreign line inside it', () => {
  for (const name of FIXTURES) {
    for (const [gapName, gap] of Object.entries(GAPS)) {
      it(`is read across ${gapName} after any of its lines (${name})`, () => {
        const lines = fixtureLines(name);
        const clean = runGrammar(grammar, lines.join('\n'));
        expect(clean.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
        const title = lines.findIndex((l) => l.includes('Performance metrics summary:'));
        // its value lines, then its rounds when it has them
        let last = title + 1;
        while (last < lines.length && /^\s+\S|^\s*Per-round metrics:$/.test(lines[last] as string)) last++;
        expect(last).toBeGreaterThan(title + 8);
        for (let i = title + 1; i < last; i++) {
          const { records, diagnostics } = runGrammar(grammar, [...lines.slice(0, i), ...gap, ...lines.slice(i)].join('\n'));
          const where = `before line ${i + 1}`;
          expect(runFields(records), where).toEqual(runFields(clean.records));
          expect(diagnostics.filter((d) => d.severity !== 'info'), where).toEqual([]);
          // said where it is (a Python warning's first line is a server-like line, skipped and counted apart)
          const gapLines = diagnostics.filter((d) => d.code === 'block/gap-line');
          expect(gapLines.length, where).toBe(1);
          expect(gapLines[0]?.line, where).toBeGreaterThanOrEqual(i + 1);
          expect(gapLines[0]?.line, where).toBeLessThanOrEqual(i + gap.length);
        }
      });
    }
  }

  it('is not read on into the next run when it was cut (its next lines are no values of it)', () => {
    const { records, diagnostics } = runGrammar(grammar, fixtureLines('warn-truncated-summary').join('\n'));
    expect(diagnostics.map((d) => d.code)).not.toContain('block/gap-line');
    expect(runFields(records)).toHaveLength(2);
  });

  it("says a value line a progress bar was drawn over is lost, where a bar's own line is only skipped", () => {
    const lines = fixtureLines('basic');
    const i = lines.findIndex((l) => l.includes('Average TTFT:'));
    const bar = '\r  0%|          | 0/96 [00:00<?, ?it/s]\r100%|██████████| 96/96 [01:15<00:00,  1.27it/s]';
    const read = (text: string[]) => {
      const sink = new DiagnosticCollector();
      const records = grammar.parse(fromText(text.join('\n'), asRelPath('t.log'), sink), sink);
      return { fields: runFields(records)[0] as Record<string, unknown>, said: sink.list().filter((d) => d.severity !== 'info').map((d) => [d.code, d.line]) };
    };
    // the client's stdout stopped inside `  Average TTFT: 0.42`, its bar drawn over it; its rest came while the bar still ran
    const over = read([...lines.slice(0, i), `${(lines[i] as string).slice(0, -1)}${bar}${(lines[i] as string).slice(-1)}`, ...lines.slice(i + 1)]);
    expect(over.fields).not.toHaveProperty('mean_ttft_ms');
    expect(over.said).toEqual([['block/overwritten-line', i + 1]]);
    // a bar on a line of its own
    const own = read([...lines.slice(0, i), bar, ...lines.slice(i)]);
    expect(own.fields).toHaveProperty('mean_ttft_ms');
    expect(own.said).toEqual([]);
  });

  it('warns that a value may be missing when a line with numbers is skipped', () => {
    const lines = fixtureLines('basic');
    const i = lines.findIndex((l) => l.includes('Average TTFT:'));
    const { records, diagnostics } = runGrammar(grammar, [...lines.slice(0, i), '  0.42', ...lines.slice(i + 1)].join('\n'));
    expect(runFields(records)[0]).not.toHaveProperty('mean_ttft_ms');
    expect(diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.line])).toEqual([['block/numbers-in-gap', i + 1]]);
  });
});
