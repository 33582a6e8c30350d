import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/trtllm-bench-iteration-log/index.js';
import { seriesEntries } from '../../../src/core/timeline-series.js';
import { asRelPath } from '../../../src/core/types.js';
import { runGrammar } from '../../helpers/grammar-run.js';

/**
 * A 2026 line: the report the client assembles from an iteration frame (`timestamp` and `iter`
 * first, not alphabetical), one line per attention-DP rank, queue counts on rank 0 only.
 */
function frameLine(rank: number, queued: number): string {
  return (
    `{'timestamp': '03-02-2026 09:15:41.204518', 'iter': 40, 'iterLatencyMS': 14.5, 'numActiveRequests': 6, 'numQueuedRequests': ${rank === 0 ? queued : 0}, ` +
    `'kvCacheStats': {'maxNumBlocks': 400, 'usedNumBlocks': 100, 'cacheHitRate': 0.0}, ` +
    `'staticBatchingStats': {'numScheduledRequests': 0, 'numContextRequests': 0, 'numCtxTokens': 0, 'numGenTokens': 0, 'emptyGenSlots': 0}, ` +
    `'inflightBatchingStats': {'numContextRequests': ${1 - rank}, 'numGenRequests': 2}, 'specDecodingStats': None, 'schedulerMode': 'overlap', ` +
    `'statsSequence': 41, 'statsDroppedFrames': 0, 'hostStepTimeMS': 7.25, ` +
    `${rank === 0 ? "'requestStats': [{'id': 7, 'stage': 'GENERATION_IN_PROGRESS', 'scheduled': True, 'disServingStats': None}], 'iterSuspendedRequests': 1, " : ''}` +
    `'attentionDpRank': ${rank}}`
  );
}

describe('2026 iteration frames', () => {
  it('are claimed though their first key is timestamp', () => {
    expect(grammar.detect({ path: asRelPath('iteration.log'), head: `${frameLine(0, 3)}\n` }).score).toBeGreaterThan(0.5);
  });

  it('give one entry per attention-DP rank, each with its rank', () => {
    const { records, diagnostics } = runGrammar(grammar, [frameLine(0, 3), frameLine(1, 3)].join('\n'));
    expect(diagnostics).toEqual([]);
    const r = records[0];
    if (r?.kind !== 'timeline') throw new Error('expected a timeline');
    const entries = seriesEntries(r.series, asRelPath('t.txt'));
    expect(
      entries.map((e) => [e.fields.attention_dp_rank, e.fields.waiting, e.fields.num_ctx_requests, e.fields.iter_latency_ms, e.fields.batch_latency_ms, e.fields.kv_cache_usage]),
    ).toEqual([
      [0, 3, 1, 7.25, 14.5, 0.25],
      [1, 0, 0, 7.25, 14.5, 0.25],
    ]);
    expect(entries[0]?.fields.preemptions).toBe(1);
    expect(entries[0]?.fields.time).toBe('2026-03-02T09:15:41');
  });
});
