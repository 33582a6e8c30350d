import { describe, expect, it } from 'vitest';
import { htmlTable, MAX_HTML_ROWS, shownRows } from '../../src/report/html-table.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `run-${i}.log`, runs: i }));

describe('a table of the report page', () => {
  it('shows every row up to MAX_HTML_ROWS, with no note', () => {
    const page = htmlTable('t', rows(MAX_HTML_ROWS), ['path', 'runs'], 'tables/t.csv').value;
    expect(page.match(/<tr>/g)).toHaveLength(MAX_HTML_ROWS + 1);
    expect(page).not.toContain('id="t-cut"');
  });

  it('past it, shows the first rows and names the CSV that holds them all', () => {
    const page = htmlTable('t', rows(MAX_HTML_ROWS + 5), ['path', 'runs'], 'tables/t.csv').value;
    expect(page.match(/<tr>/g)).toHaveLength(MAX_HTML_ROWS + 1);
    expect(page).toContain(`<p class="note" id="t-cut">The first ${MAX_HTML_ROWS} of ${MAX_HTML_ROWS + 5} rows; all of them: tables/t.csv.</p>`);
    expect(page).toContain(`run-${MAX_HTML_ROWS - 1}.log`);
    expect(page).not.toContain(`run-${MAX_HTML_ROWS}.log`);
  });

  it('of a long table, makes only the rows it shows, and says how many there are', () => {
    const made: number[] = [];
    const table = shownRows(rows(MAX_HTML_ROWS + 5), (shown) => {
      made.push(shown.length);
      return shown.map((r) => ({ ...r, path: r.path.toUpperCase() }));
    });
    expect(made).toEqual([MAX_HTML_ROWS]);
    const page = htmlTable('t', table.rows, ['path', 'runs'], 'tables/t.csv', table.total).value;
    expect(page).toContain(`The first ${MAX_HTML_ROWS} of ${MAX_HTML_ROWS + 5} rows`);
    expect(page).toContain(`RUN-${MAX_HTML_ROWS - 1}.LOG`);
  });
});
