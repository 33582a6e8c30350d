import { describe, expect, it } from 'vitest';
import { finish, legendLabelLimit } from '../../src/charts/theme.js';
import { textWidth } from '../../src/render/text-width.js';

describe('legend label room', () => {
  it('keeps the default room for short names', () => {
    expect(legendLabelLimit(['eagle3 K=7', 'draft_model K=8'])).toBe(260);
    expect(legendLabelLimit([])).toBe(260);
  });

  it('widens the legend to its longest name, so names that differ at their end are not cut to one', () => {
    const names = ['eagle3 K=4 tp=1 engine=sglang backend=sglang', 'eagle3 K=4 tp=1 engine=sglang backend=sglang-oai'];
    const limit = legendLabelLimit(names);
    expect(limit).toBeGreaterThan(260);
    for (const n of names) expect(textWidth(n, 11)).toBeLessThanOrEqual(limit);
    const spec = finish({}, {}, 'chart', names) as unknown as { config: { legend: { labelLimit: number } } };
    expect(spec.config.legend.labelLimit).toBe(limit);
  });

  it('never makes a legend wider than its maximum', () => {
    expect(legendLabelLimit(['x'.repeat(400)])).toBe(480);
  });
});
