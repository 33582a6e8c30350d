import { describe, expect, it } from 'vitest';
import { MAX_HTML_ROWS } from '../../src/report/html-table.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ source: `c${i}.json:1`, speedup_output_throughput: 1 + i / 1000 }));

describe('summary.md', () => {
  it('has every comparison row of a campaign past 100 configurations', () => {
    const md = summaryMarkdown('t', [], [], rows(150), []);
    expect(md.match(/^\|c\d+\.json:1\|/gm)).toHaveLength(150);
    expect(md).toContain('|c149.json:1|1.149|');
    expect(md).not.toContain('The first');
  });

  it('shows the first rows of a longer table, as the page does, and names the CSV with all of them', () => {
    const md = summaryMarkdown('t', [], [], rows(MAX_HTML_ROWS + 1), []);
    expect(md.match(/^\|c\d+\.json:1\|/gm)).toHaveLength(MAX_HTML_ROWS);
    expect(md).toContain(`The first ${MAX_HTML_ROWS} of ${MAX_HTML_ROWS + 1} rows; all of them: tables/comparison.csv.`);
  });
});
