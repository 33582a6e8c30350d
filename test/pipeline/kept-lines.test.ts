import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../src/core/types.js';
import { KEPT_OVERLAP_CHARS, KEPT_WINDOW_CHARS, KeptLines, type KeptWindow } from '../../src/pipeline/kept-lines.js';

const file = 'serve.log' as RelPath;

/** Feeds the lines (numbered from `first`, with gaps of `gap`) and returns the windows handed on. */
function windowsOf(lengths: readonly number[], gap = 3): KeptWindow[] {
  const windows: KeptWindow[] = [];
  const kept = new KeptLines(file, (w) => windows.push({ ...w, source: { ...w.source, lines: [...w.source.lines] } }));
  lengths.forEach((n, i) => kept.line('x'.repeat(n), 1 + i * gap));
  kept.finish();
  return windows;
}

describe('KeptLines', () => {
  it('hands on a short log as one window that owns every line, numbered as in the file, with its foreign lines', () => {
    const windows: KeptWindow[] = [];
    const kept = new KeptLines(file, (w) => windows.push(w));
    kept.line('a', 4, true);
    kept.line('b', 90);
    // an empty foreign line is kept, but not read for detection (as a whole read's foreignClaimsOf)
    kept.line('', 91, true);
    kept.line('c', 92, true);
    kept.finish();
    expect(windows).toHaveLength(1);
    const [w] = windows;
    expect(w?.source.lines).toEqual(['a', 'b', '', 'c']);
    expect([1, 2, 4].map((n) => w?.lineOf(n))).toEqual([4, 90, 92]);
    expect([w?.from, w?.to]).toEqual([0, Number.POSITIVE_INFINITY]);
    expect(w?.foreignText).toBe('a\nc');
  });

  it('hands on one empty window when no line was kept (the grammars still read the file)', () => {
    const windows = windowsOf([]);
    expect(windows.map((w) => [w.source.lines.length, w.from, w.to])).toEqual([[0, 0, Number.POSITIVE_INFINITY]]);
  });

  it('gives the file\'s last line to the last window alone, marked unterminated when the file ends inside it', () => {
    const windowsTo = (lines: number): KeptWindow[] => {
      const windows: KeptWindow[] = [];
      const kept = new KeptLines(file, (w) => windows.push(w));
      // the third line fills the window
      [KEPT_WINDOW_CHARS - 10, 5, 20, 7].slice(0, lines).forEach((n, i) => kept.line('x'.repeat(n), i + 1));
      kept.finish(lines);
      return windows;
    };
    const lastLines = (windows: readonly KeptWindow[]) => windows.map((w) => [w.lineOf(w.source.lines.length), w.source.unterminated ?? false]);
    // a full window is handed on when a line follows it: the last line is the last window's alone
    expect(lastLines(windowsTo(4))).toEqual([
      [3, false],
      [4, true],
    ]);
    expect(lastLines(windowsTo(3))).toEqual([[3, true]]);
    // the line the file ends inside was not kept (a stats line): no window ends with it
    const other: KeptWindow[] = [];
    const short = new KeptLines(file, (w) => other.push(w));
    short.line('a', 1);
    short.finish(2);
    expect(other.map((w) => w.source.unterminated ?? false)).toEqual([false]);
  });

  it('tiles a long log: every line is owned by one window that holds it, with half an overlap of text around it', () => {
    // a few MB of lines, a few of them of most of a window or more
    const length = fc.oneof({ weight: 60, arbitrary: fc.integer({ min: 0, max: 8000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.round(1.3 * KEPT_WINDOW_CHARS) }) });
    fc.assert(
      fc.property(fc.array(length, { minLength: 1, maxLength: 1500, size: 'max' }), (lengths) => {
        const gap = 3;
        const windows = windowsOf(lengths, gap);
        // ownership tiles the line numbers, in order, from 0 to the end
        expect(windows[0]?.from).toBe(0);
        expect(windows.at(-1)?.to).toBe(Number.POSITIVE_INFINITY);
        for (let k = 1; k < windows.length; k++) expect(windows[k]?.from).toBe(windows[k - 1]?.to);
        lengths.forEach((n, i) => {
          const lineNo = 1 + i * gap;
          const owners = windows.filter((w) => lineNo >= w.from && lineNo < w.to);
          expect(owners).toHaveLength(1);
          const w = owners[0] as KeptWindow;
          const at = w.source.lines.findIndex((_, j) => w.lineOf(j + 1) === lineNo);
          expect(at).toBeGreaterThanOrEqual(0);
          expect(w.source.lines[at]).toHaveLength(n);
          // context: half an overlap before it (unless the window is the first, or starts right
          // after a line of most of a window, which the window before ended with) and after it (unless the last)
          const chars = (from: number, to: number) => w.source.lines.slice(from, to).reduce((sum, l) => sum + l.length + 1, 0);
          const first = lengths.findIndex((_, j) => 1 + j * gap === w.lineOf(1));
          const afterHuge = first > 0 && (lengths[first - 1] as number) >= KEPT_WINDOW_CHARS - KEPT_OVERLAP_CHARS;
          if (w !== windows[0] && !afterHuge) expect(chars(0, at)).toBeGreaterThanOrEqual(KEPT_OVERLAP_CHARS / 2);
          if (w !== windows.at(-1)) expect(chars(at, w.source.lines.length)).toBeGreaterThanOrEqual(KEPT_OVERLAP_CHARS / 2);
        });
        // memory: a window holds about a window of text (one line past it at most)
        const longest = Math.max(...lengths) + 1;
        expect(windows.length).toBeGreaterThan(lengths.reduce((sum, n) => sum + n + 1, 0) / KEPT_WINDOW_CHARS - 1);
        for (const w of windows) expect(w.source.lines.reduce((sum, l) => sum + l.length + 1, 0)).toBeLessThan(KEPT_WINDOW_CHARS + longest);
      }),
      { numRuns: 30, seed: 7 },
    );
  });

  it("gives each window the heads its lines lost to a redraw, by the window's own line indexes", () => {
    const windows: KeptWindow[] = [];
    const kept = new KeptLines(file, (w) => windows.push(w));
    // three windows' worth of lines; every hundredth lost its head to a progress bar
    for (let i = 0; i < 3 * (KEPT_WINDOW_CHARS / 1000); i++) kept.line('x'.repeat(999), 2 * i + 1, false, i % 100 === 0 ? `head of ${2 * i + 1}` : undefined);
    kept.finish();
    expect(windows.length).toBeGreaterThan(2);
    let seen = 0;
    for (const w of windows) {
      const heads = [...(w.source.overwritten ?? new Map<number, string>())];
      expect(heads.length).toBeGreaterThan(0);
      for (const [index, head] of heads) expect(head).toBe(`head of ${w.lineOf(index + 1)}`);
      // every line of the window that lost one has it
      const expected = w.source.lines.map((_, i) => w.lineOf(i + 1)).filter((n) => (n - 1) % 200 === 0);
      expect(heads.map(([index]) => w.lineOf(index + 1))).toEqual(expected);
      seen += heads.length;
    }
    expect(seen).toBeGreaterThanOrEqual(3 * (KEPT_WINDOW_CHARS / 1000) / 100);
  });
});
