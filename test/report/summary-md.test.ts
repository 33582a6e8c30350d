import { describe, expect, it } from 'vitest';
import { MAX_HTML_ROWS } from '../../src/report/html-table.js';
import type { ReportFigure } from '../../src/report/figures.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ source: `c${i}.json:1`, speedup_output_throughput: 1 + i / 1000 }));

describe('summary.md', () => {
  it('has every comparison row of a campaign past 100 configurations', () => {
    const md = summaryMarkdown('t', [], [], { rows: rows(150), total: 150 }, []);
    expect(md.match(/^\|c\d+\.json:1\|/gm)).toHaveLength(150);
    expect(md).toContain('|c149.json:1|1.149|');
    expect(md).not.toContain('The first');
  });

  it('shows the first rows of a longer table, as the page does, and names the CSV with all of them', () => {
    const md = summaryMarkdown('t', [], [], { rows: rows(MAX_HTML_ROWS + 1), total: MAX_HTML_ROWS + 1 }, []);
    expect(md.match(/^\|c\d+\.json:1\|/gm)).toHaveLength(MAX_HTML_ROWS);
    expect(md).toContain(`The first ${MAX_HTML_ROWS} of ${MAX_HTML_ROWS + 1} rows; all of them: tables/comparison.csv.`);
  });
});

describe('summary.md figures', () => {
  const spec = {} as never;
  const figures: ReportFigure[] = [
    { id: 'speedup-heatmap', chart: 'speedup-heatmap', title: 'Speedup heatmap', drawn: false, reason: '96 panels, too many to read in one chart (at most 24)', parts: '2 parts, by tp' },
    { id: 'speedup-heatmap-part-01', chart: 'speedup-heatmap', title: 'Speedup heatmap (tp=1)', drawn: true, spec, svg: '<svg/>', note: null },
    { id: 'speedup-heatmap-part-02', chart: 'speedup-heatmap', title: 'Speedup heatmap (tp=2)', drawn: true, spec, svg: '<svg/>', note: null },
    { id: 'pareto', chart: 'pareto', title: 'Throughput–latency Pareto', drawn: false, reason: '160 configurations, too many (draw a part with benchlens plot --chart pareto --filter tp=1)' },
    { id: 'server-timeline', chart: 'server-timeline', title: 'Server timeline', drawn: false, reason: 'no server stats lines' },
  ];

  it('says which charts were not drawn and why, as the page does, after those drawn', () => {
    const md = summaryMarkdown('t', [], [], { rows: [], total: 0 }, figures);
    const section = md.slice(md.indexOf('## Figures'));
    expect(section).toBe(
      [
        '## Figures',
        '',
        'Speedup heatmap: not drawn whole (96 panels, too many to read in one chart (at most 24)); below in 2 parts, by tp.',
        '',
        '![Speedup heatmap (tp=1)](figures/speedup-heatmap-part-01.svg)',
        '',
        '![Speedup heatmap (tp=2)](figures/speedup-heatmap-part-02.svg)',
        '',
        'Not drawn:',
        '',
        '- Throughput–latency Pareto: 160 configurations, too many (draw a part with benchlens plot --chart pareto --filter tp=1).',
        '- Server timeline: no server stats lines.',
        '',
      ].join('\n'),
    );
  });

  it('has no figures section when the report has no figure', () => {
    expect(summaryMarkdown('t', [], [], { rows: [], total: 0 }, [])).not.toContain('## Figures');
  });
});
