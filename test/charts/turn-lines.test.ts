import { describe, expect, it } from 'vitest';
import { turnLines } from '../../src/charts/turn-lines.js';
import type { Row } from '../../src/charts/types.js';

const run = (conc: number, ttft: number[], tpot?: number[]): Row => ({
  source_file: `mt/c${conc}.json`,
  source_line: 1,
  model: 'acme/m-8b',
  max_concurrency: conc,
  multi_turn: true,
  per_turn_mean_ttft_ms: ttft,
  ...(tpot ? { per_turn_mean_tpot_ms: tpot } : {}),
});

function drawn(rows: readonly Row[], y?: string): { title: unknown; values: { series: string; turn: number; value: number }[] } {
  const result = turnLines(rows, y === undefined ? {} : { y });
  if (!result.ok) throw new Error(result.reason);
  const spec = result.spec as unknown as { title: { text: unknown }; data: { values: { series: string; turn: number; value: number }[] } };
  return { title: spec.title.text, values: spec.data.values };
}

describe('turn-lines', () => {
  it('draws each configuration’s mean TTFT at each turn, one line per concurrency', () => {
    const { title, values } = drawn([run(8, [70, 88, 106]), run(16, [90, 120, 150])]);
    expect(title).toBe('mean TTFT (ms) per conversation turn');
    expect(values.map((v) => [v.series, v.turn, v.value])).toEqual([
      ['all runs @16', 1, 90], ['all runs @16', 2, 120], ['all runs @16', 3, 150],
      ['all runs @8', 1, 70], ['all runs @8', 2, 88], ['all runs @8', 3, 106],
    ]);
  });

  it('draws the per-turn metric --y asks for (not the headline --metric), and mean TTFT when the runs have none of it', () => {
    const rows = [run(8, [70, 88], [20, 21]), run(16, [90, 120], [25, 27])];
    expect(drawn(rows, 'mean_tpot_ms').values.map((v) => v.value)).toEqual([25, 27, 20, 21]);
    expect(drawn(rows, 'per_turn_mean_tpot_ms').values.map((v) => v.value)).toEqual([25, 27, 20, 21]);
    expect(drawn(rows, 'p99_itl_ms').title).toBe('mean TTFT (ms) per conversation turn');
    const headline = turnLines(rows, { metric: 'output_throughput' });
    expect(headline.ok && (headline.spec.title as { text: string }).text).toBe('mean TTFT (ms) per conversation turn');
  });

  it('draws a per-turn hit rate in %', () => {
    const rows = [{ ...run(8, [70, 40]), per_turn_prefix_cache_hit_rate: [0, 0.53] }];
    const result = turnLines(rows, { y: 'prefix_cache_hit_rate' });
    if (!result.ok) throw new Error(result.reason);
    expect(JSON.stringify(result.spec)).toContain('"scale":{"domain":[0,1]},"axis":{"format":"%"}');
  });

  it('says why it draws nothing for runs of one turn', () => {
    const result = turnLines([{ source_file: 'a.json', source_line: 1, mean_ttft_ms: 40 }], {});
    expect(result).toEqual({ ok: false, reason: 'no multi-turn runs with per_turn_mean_ttft_ms' });
  });
});
