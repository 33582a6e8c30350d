import type { FieldValue } from '../core/types.js';

type Row = Record<string, FieldValue>;

const num = (v: FieldValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Derived columns (schema.md §1), computed, never parsed:
 * - est_mean_e2el_ms = mean_ttft_ms + mean_tpot_ms × (total_output_tokens / completed − 1), when E2EL is absent
 * - output_throughput_per_user = 1000 / mean_tpot_ms
 * - output_throughput_per_gpu = output_throughput / the GPUs that served it (servingGpus), when known
 */
export function addDerived(row: Row): void {
  const ttft = num(row.mean_ttft_ms);
  const tpot = num(row.mean_tpot_ms);
  const out = num(row.total_output_tokens);
  const done = num(row.completed);
  if (num(row.mean_e2el_ms) === null && ttft !== null && tpot !== null && out !== null && done !== null && done > 0) {
    row.est_mean_e2el_ms = round(ttft + tpot * (out / done - 1));
  }
  if (tpot !== null && tpot > 0) row.output_throughput_per_user = round(1000 / tpot);
  const tput = num(row.output_throughput);
  const gpus = servingGpus(row);
  if (tput !== null && gpus !== null) row.output_throughput_per_gpu = round(tput / gpus);
}

/**
 * The GPUs a run was served by: `num_gpus` when its source counts them (a runner manifest's GPUs,
 * a deployment's accelerators); else tp × pp × pcp (prefill context parallelism, `pcp_size`) × dp,
 * where SGLang's data-parallel attention (`dp` ranks inside the `tp` ones) adds none, times the
 * servers behind one endpoint (`num_workers`); for a prefill/decode-disaggregated server, every
 * decode and prefill server's (the prefill servers' sizes are the decode ones' unless a `prefill_`
 * column says otherwise), and none known without both servers' counts. Null when the sizes are not known.
 */
export function servingGpus(row: Readonly<Row>): number | null {
  const stated = num(row.num_gpus);
  if (stated !== null && stated > 0) return stated;
  const tp = num(row.tp);
  if (tp === null || tp <= 0) return null;
  const perServer = (prefix: '' | 'prefill_'): number => {
    const size = (column: 'tp' | 'pp' | 'dp' | 'pcp_size'): number => num(row[`${prefix}${column}`]) ?? num(row[column]) ?? 1;
    const dpAttention = (row[`${prefix}enable_dp_attention`] ?? row.enable_dp_attention) === true;
    return size('tp') * size('pp') * size('pcp_size') * (dpAttention ? 1 : size('dp'));
  };
  if (row.disaggregation !== 'pd') return perServer('') * (num(row.num_workers) ?? 1);
  const decode = num(row.num_decode_servers);
  const prefill = num(row.num_prefill_servers);
  return decode === null || prefill === null ? null : decode * perServer('') + prefill * perServer('prefill_');
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
