import { describe, expect, it } from 'vitest';
import { shortPathNames } from '../../src/charts/path-names.js';

describe('shortPathNames', () => {
  it('names each log by its file name when that tells it apart', () => {
    const names = shortPathNames(['eagle3-k7/tp-results-eagle3/eagle3-serve.log', 'k8/tp-results-draft-model/draft-model-serve.log', 'tp-results/nosd-serve.log']);
    expect([...names.values()]).toEqual(['eagle3-serve.log', 'draft-model-serve.log', 'nosd-serve.log']);
  });

  it('keeps as many folders as tell two logs of one file name apart', () => {
    const names = shortPathNames(['sweep/k7/serve.log', 'sweep/k8/serve.log', 'other/solo.log']);
    expect(names.get('sweep/k7/serve.log')).toBe('k7/serve.log');
    expect(names.get('sweep/k8/serve.log')).toBe('k8/serve.log');
    expect(names.get('other/solo.log')).toBe('solo.log');
  });

  it('names a path that ends another by itself, and the longer one by more of its folders', () => {
    const names = shortPathNames(['a/serve.log', 'x/a/serve.log']);
    expect(names.get('a/serve.log')).toBe('a/serve.log');
    expect(names.get('x/a/serve.log')).toBe('x/a/serve.log');
  });

  it('cuts a long name in its middle, keeping the file name, and never gives two logs one name', () => {
    const long = `${'very-long-campaign-folder-name'}/serve-${'x'.repeat(50)}.log`;
    const name = shortPathNames([long, 'b.log'], 40).get(long) ?? '';
    expect(name.length).toBe(40);
    expect(name).toContain('…');
    expect(name.endsWith('x.log')).toBe(true);
    // two names the cut would make one stay whole
    const a = `logs/run-${'q'.repeat(20)}-A-${'q'.repeat(30)}.log`;
    const b = `logs/run-${'q'.repeat(20)}-B-${'q'.repeat(30)}.log`;
    const both = shortPathNames([a, b], 40);
    expect(both.get(a)).toBe(a.slice('logs/'.length));
    expect(both.get(b)).toBe(b.slice('logs/'.length));
  });
});
