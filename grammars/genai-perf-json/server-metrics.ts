import type { ConfigRecord } from '../../src/core/records.js';
import { FieldMapBuilder } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * vLLM's speculative-decoding counters (vllm/v1/spec_decode/metrics.py `SpecDecodingProm`), by the
 * name AIPerf keys them under: the Prometheus family name, which drops the `_total` sample suffix
 * (prometheus_client's parser); the suffixed name is taken too.
 */
const DRAFTS = 'vllm:spec_decode_num_drafts';
const DRAFT_TOKENS = 'vllm:spec_decode_num_draft_tokens';
const ACCEPTED = 'vllm:spec_decode_num_accepted_tokens';
const PER_POSITION = 'vllm:spec_decode_num_accepted_tokens_per_pos';

/** A counter's increase over the run, summed over its series, at its metric's line. */
interface Increase {
  readonly total: number;
  readonly line: number;
  /** By the series' `position` label (the per-position counter). */
  readonly byPosition: ReadonlyMap<number, number>;
}

/**
 * `server_metrics_export.json`'s speculative-decoding counters as a `bench-metrics` record for the
 * one run of `client` in its folder: `spec_num_drafts`, `spec_draft_tokens`, `spec_accepted_tokens`,
 * `spec_acceptance_rate` (accepted / draft tokens, a fraction), `spec_acceptance_length` (1 +
 * accepted / drafts: the bonus token included), `spec_per_position_acceptance` (accepted at each
 * position / drafts), as vLLM's own log line and `vllm bench serve` compute them. AIPerf writes a
 * counter's `stats.total` as its increase over the profiling window (the last scrape in it minus
 * the scrape before it; warm-up left out), not the value since the server started: the run's own
 * counts. Every series (endpoint, engine) is summed. Null when the export has none of the counters.
 */
export function serverMetricsRecord(obj: JsonObject, at: SourcePos, client: string): ConfigRecord | null {
  const metrics = obj.metrics;
  if (!isJsonObject(metrics)) return null;
  const lines = keyLines.get(metrics) ?? {};
  const increase = (name: string): Increase | null => {
    for (const key of [name, `${name}_total`]) {
      const found = counterIncrease(metrics[key], lines[key] ?? at.line);
      if (found) return found;
    }
    return null;
  };
  const drafts = increase(DRAFTS);
  const draftTokens = increase(DRAFT_TOKENS);
  const accepted = increase(ACCEPTED);
  const perPosition = increase(PER_POSITION);
  if (!drafts && !draftTokens && !accepted) return null;
  const builder = new FieldMapBuilder();
  if (drafts) builder.set('spec_num_drafts', drafts.total, drafts.line);
  if (draftTokens) builder.set('spec_draft_tokens', draftTokens.total, draftTokens.line);
  if (accepted) builder.set('spec_accepted_tokens', accepted.total, accepted.line);
  if (accepted && draftTokens && draftTokens.total > 0) builder.set('spec_acceptance_rate', accepted.total / draftTokens.total, accepted.line);
  if (accepted && drafts && drafts.total > 0) builder.set('spec_acceptance_length', 1 + accepted.total / drafts.total, accepted.line);
  const rates = drafts && drafts.total > 0 && perPosition ? positionRates(perPosition.byPosition, drafts.total) : null;
  if (rates && perPosition) builder.set('spec_per_position_acceptance', rates, perPosition.line);
  builder.set('client', client, at.line);
  return { kind: 'config', at, origin: 'bench-metrics', fields: builder.fields, lines: builder.lines };
}

/** A counter metric's increase: the sum of its series' `stats.total`; null when it is no counter or has none. */
function counterIncrease(metric: JsonValue | undefined, line: number): Increase | null {
  if (!isJsonObject(metric) || !Array.isArray(metric.series)) return null;
  // a gauge of that name would be a level, not a count of the run
  if (metric.type !== undefined && metric.type !== 'counter') return null;
  let total = 0;
  let any = false;
  const byPosition = new Map<number, number>();
  for (const series of metric.series) {
    if (!isJsonObject(series) || !isJsonObject(series.stats)) continue;
    const v = series.stats.total;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) continue;
    total += v;
    any = true;
    const pos = isJsonObject(series.labels) ? series.labels.position : undefined;
    const p = typeof pos === 'string' && /^\d+$/.test(pos) ? Number(pos) : null;
    if (p !== null) byPosition.set(p, (byPosition.get(p) ?? 0) + v);
  }
  return any ? { total, line, byPosition } : null;
}

/** Accepted tokens at positions 0…k-1 over the drafts; null unless every position up to the last is there. */
function positionRates(byPosition: ReadonlyMap<number, number>, drafts: number): number[] | null {
  const k = byPosition.size;
  if (k === 0) return null;
  const out: number[] = [];
  for (let p = 0; p < k; p++) {
    const v = byPosition.get(p);
    if (v === undefined) return null;
    out.push(v / drafts);
  }
  return out;
}
