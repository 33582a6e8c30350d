import { describe, expect, it } from 'vitest';
import { itemTextWidth, textWidth } from '../../src/render/text-width.js';

describe('text widths for headless layout', () => {
  it('measures each character by its font advance, narrower than Vega’s 0.8 em guess, bold wider', () => {
    expect(textWidth('iiii', 10)).toBeCloseTo((4 * 569 * 10) / 2048, 6);
    expect(textWidth('mmmm', 10)).toBeGreaterThan(textWidth('iiii', 10) * 3);
    const label = 'enable_prefix_caching=true';
    expect(textWidth(label, 13)).toBeLessThan(0.8 * label.length * 13 * 0.75);
    expect(textWidth(label, 13, true)).toBeGreaterThan(textWidth(label, 13));
    // outside ASCII: a letter's width, a full em for CJK
    expect(textWidth('é', 10)).toBeCloseTo(6.2, 6);
    expect(textWidth('模型', 10)).toBeCloseTo(20, 6);
  });

  it('gives Vega an item’s width as drawn: its font size and weight, no wider than the limit it is cut to', () => {
    expect(itemTextWidth({ fontSize: 20, fontWeight: 'bold' }, 'ab')).toBeCloseTo(((1382 + 1466) * 20) / 2048, 6);
    expect(itemTextWidth({ fontWeight: 700 }, ' ab ')).toBeCloseTo(((1382 + 1466) * 11) / 2048, 6);
    expect(itemTextWidth({ fontSize: 13, limit: 50 }, 'a long legend label that Vega cuts')).toBe(50);
    expect(itemTextWidth({ fontSize: 0 }, 'x')).toBe(0);
    expect(itemTextWidth({}, null)).toBe(0);
  });
});
