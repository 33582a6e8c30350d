import type { FieldValue } from '../../src/core/types.js';
import { segmentConfig } from '../../src/normalize/path-config.js';
import type { RowKind } from './columns.js';

/**
 * The scripts name a serving result `<test name>_qps_<rate>` (2025 →: `…_qps_<rate>_concurrency_<n>`),
 * `<rate>` as the test's `qps_list` spells it (`1`, `01`, `0.5`, `inf`). segmentConfig reads a
 * rate only when it is one token with its key (`qps16`, `rate=2`), so these two are read here.
 */
const QPS = /(?:^|_)qps_(\d+(?:\.\d+)?|inf)(?=_|$)/i;
const CONCURRENCY = /(?:^|_)concurrency_(\d+)(?=_|$)/i;

/**
 * What a test name says of its run (`serving_llama8B_tp1_sharegpt_qps_1`,
 * `serving_deepseek-ai-DeepSeek-V2.5_tp8_pp2_sharegpt_qps_inf`): the load point the script
 * appended, and what path-config.ts reads of any name (`tp<N>`, `pp<N>`, the dataset, a
 * quantization, a dtype, a speculative method, an engine). An offline benchmark (latency,
 * throughput) has no request rate nor concurrency: a `bs8` / `c8` in a latency test's name is its
 * batch size, as for the path of such a run.
 */
export function testNameConfig(name: string, kind: RowKind | null): Record<string, FieldValue> {
  const config: Record<string, FieldValue> = {};
  const qps = QPS.exec(name)?.[1];
  if (qps !== undefined) config.request_rate = /^inf$/i.test(qps) ? Infinity : Number(qps);
  const concurrency = CONCURRENCY.exec(name)?.[1];
  if (concurrency !== undefined) config.max_concurrency = Number(concurrency);
  for (const [key, value] of Object.entries(segmentConfig(name))) if (!Object.hasOwn(config, key)) config[key] = value;
  if (kind === 'latency' || kind === 'throughput') {
    const batch = config.max_concurrency;
    delete config.max_concurrency;
    delete config.request_rate;
    if (kind === 'latency' && typeof batch === 'number') config.batch_size = batch;
  }
  return config;
}
