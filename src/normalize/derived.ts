import type { FieldValue } from '../core/types.js';

type Row = Record<string, FieldValue>;

const num = (v: FieldValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Derived columns (schema.md §1), computed, never parsed:
 * - est_mean_e2el_ms = mean_ttft_ms + mean_tpot_ms × (total_output_tokens / completed − 1), when E2EL is absent
 * - output_throughput_per_user = 1000 / mean_tpot_ms
 * - output_throughput_per_gpu = output_throughput / (tp × pp × dp), when parallel sizes are known
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
  const tp = num(row.tp);
  if (tput !== null && tp !== null && tp > 0) {
    const gpus = tp * (num(row.pp) ?? 1) * (num(row.dp) ?? 1);
    row.output_throughput_per_gpu = round(tput / gpus);
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
