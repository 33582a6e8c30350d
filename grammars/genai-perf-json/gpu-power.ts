import type { FieldMapBuilder } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';

/**
 * AIPerf's own GPU power and energy metrics in its main export (`profile_export_aiperf.json`, keyed
 * by tag) and its CSV export (`Header (unit)` rows), 2025–2026 (ai-dynamo/aiperf
 * `metrics/types/power_efficiency_metrics.py`, `gpu_telemetry/accumulator.py`
 * `compute_efficiency_metrics`, `metrics/energy_efficiency_analyzer.py`). Each is a run-level
 * value (`avg` only), summed over the GPUs the telemetry saw. Three shapes were written:
 * - the telemetry accumulator's `total_gpu_power`, `total_gpu_energy`, `output_tokens_per_joule`,
 *   `energy_per_user`, whose headers end in the GPU count (`Total GPU Energy (4 GPUs)`), and whose
 *   tokens per joule counts `total_output_tokens` (reasoning tokens left out);
 * - the energy-efficiency analyzer's twelve metrics (the four above, with `total_osl` over the
 *   energy, and `average_gpu_power`, `energy_per_output_token`, …, `goodput_per_watt`);
 * - the same twelve per vendor, `nvidia_…` and `amd_…` (the headers stay the same).
 * Shared-column meaning is the analyzer's; see README "GPU power in the export itself".
 */
const HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'total gpu power': 'total_gpu_power',
  'total gpu energy': 'total_gpu_energy',
  'average gpu power': 'average_gpu_power',
  'output tokens per joule': 'output_tokens_per_joule',
  'energy per user': 'energy_per_user',
  'energy per output token': 'energy_per_output_token',
  'energy per total token': 'energy_per_total_token',
  'energy per request': 'energy_per_request',
  'energy delay product': 'energy_delay_product',
  'performance per watt': 'performance_per_watt',
  'output tps per watt': 'output_tps_per_watt',
  'output tokens per second per watt': 'output_tps_per_watt',
  'goodput per watt': 'goodput_per_watt',
});

/** Metrics only the analyzer wrote: with any of them, tokens per joule counts reasoning tokens too. */
const ANALYZER_ONLY = new Set(['average_gpu_power', 'energy_per_output_token', 'energy_per_total_token', 'energy_per_request', 'energy_delay_product', 'performance_per_watt', 'output_tps_per_watt', 'goodput_per_watt']);

type Quantity = 'power' | 'energy' | 'per-energy';
/** Tag → shared column and what its unit measures; the rest keep their tag as column. */
const SHARED: Readonly<Record<string, readonly [column: string, quantity: Quantity]>> = Object.freeze({
  total_gpu_power: ['gpu_power_w', 'power'],
  total_gpu_energy: ['gpu_energy_j', 'energy'],
  output_tokens_per_joule: ['output_tokens_per_joule', 'per-energy'],
  energy_per_output_token: ['energy_per_output_token_j', 'energy'],
  energy_per_total_token: ['energy_per_token_j', 'energy'],
  energy_per_request: ['energy_per_request_j', 'energy'],
});

/** Case matters: `mJ` is not `MJ`. */
const ENERGY_UNITS: Readonly<Record<string, number>> = Object.freeze({ J: 1, joule: 1, joules: 1, kJ: 1e3, MJ: 1e6, mJ: 1e-3, Wh: 3600, kWh: 3.6e6 });
const POWER_UNITS: Readonly<Record<string, number>> = Object.freeze({ W: 1, watt: 1, watts: 1, kW: 1e3, mW: 1e-3 });

/** One AIPerf GPU power metric of a run: its tag (vendor prefix apart), unit as written, average. */
export interface GpuPowerRow {
  readonly vendor: '' | 'nvidia' | 'amd';
  readonly tag: string;
  /** The header ended in `(N GPUs)`: the telemetry accumulator's shape. */
  readonly gpuSuffix: boolean;
  readonly unit: string | null;
  readonly value: number;
  readonly line: number;
}

const NAME = /^(?:(nvidia|amd) )?([a-z ]+?)(?: \((\d+) gpus?\))?$/;

/**
 * The AIPerf GPU power metric a tag (`nvidia_total_gpu_power`) or header (`Total GPU Energy (4
 * GPUs)`, without its unit) names, or null.
 */
export function gpuPowerMetric(name: string): { vendor: '' | 'nvidia' | 'amd'; tag: string; gpuSuffix: boolean } | null {
  const m = NAME.exec(name.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase());
  if (m === null) return null;
  const tag = HEADERS[m[2] ?? ''];
  if (tag === undefined) return null;
  return { vendor: (m[1] ?? '') as '' | 'nvidia' | 'amd', tag, gpuSuffix: m[3] !== undefined };
}

/** `Total GPU Energy (4 GPUs) (J)` → name `Total GPU Energy (4 GPUs)`, unit `J` (case kept). */
export function splitUnitLabel(label: string): { name: string; unit: string | null } {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(label.trim());
  if (m === null) return { name: label.trim(), unit: null };
  // a header with no unit that ends in its GPU count: that is no unit
  if (/^\d+ GPUs?$/i.test(m[2] ?? '')) return { name: label.trim(), unit: null };
  return { name: m[1] ?? '', unit: m[2]?.trim() ?? null };
}

/** The factor from `unit` to the shared column's (J, W, tokens per J), or null when unknown. */
function factorOf(quantity: Quantity, unit: string | null): number | null {
  if (unit === null || unit === '') return null;
  const u = unit.trim();
  if (quantity === 'power') return POWER_UNITS[u] ?? null;
  // `mJ/token`, `joules/request`, `J/req`: the energy before the slash
  if (quantity === 'energy') return ENERGY_UNITS[u.split('/')[0]?.trim() ?? ''] ?? null;
  // `tokens/J`, `tokens/kJ`: per energy unit
  const m = /^(?:tokens?|tok)\s*\/\s*(\S+)$/.exec(u);
  const per = m === null ? undefined : ENERGY_UNITS[m[1] ?? ''];
  return per === undefined ? null : 1 / per;
}

/**
 * Sets a run's AIPerf GPU power metrics. With one vendor's metrics (or unprefixed ones), those that
 * mean a shared column take it, converted to its unit: `total_gpu_power` → `gpu_power_w` (the
 * per-GPU mean power, summed), `total_gpu_energy` → `gpu_energy_j`, `energy_per_output_token`,
 * `energy_per_total_token` (mJ) → `energy_per_output_token_j`, `energy_per_token_j`,
 * `energy_per_request` → `energy_per_request_j`, `output_tokens_per_joule` →
 * `output_tokens_per_joule` unless it is the accumulator's and the run has reasoning tokens (then
 * `output_tokens_per_joule_excl_reasoning`). The others (and a unit not known) keep their tag as
 * column (the vendor prefix dropped), value as written, and join `unknown`. Both vendors in one
 * run (or one header twice): every metric keeps its prefixed tag, none takes a shared column (each
 * sums only its own vendor's GPUs).
 */
export function addGpuPowerRows(builder: FieldMapBuilder, rows: readonly GpuPowerRow[], reasoning: boolean, unknown: string[]): void {
  if (rows.length === 0) return;
  const vendors = new Set(rows.map((r) => r.vendor));
  const tags = new Set(rows.map((r) => `${r.vendor}:${r.tag}`));
  const mixed = vendors.size > 1 || tags.size < rows.length;
  const analyzer = rows.some((r) => ANALYZER_ONLY.has(r.tag));
  const accumulator = !analyzer || rows.some((r) => r.gpuSuffix);
  for (const row of rows) {
    // one vendor: its tag without the prefix (the same metric as the unprefixed and side-file ones)
    const own = mixed && row.vendor !== '' ? `${row.vendor}_${row.tag}` : row.tag;
    const shared = mixed ? undefined : SHARED[row.tag];
    const factor = shared === undefined ? null : factorOf(shared[1], row.unit);
    const unit = row.unit === null || row.unit === '' ? '' : ` (${row.unit})`;
    if (shared === undefined || factor === null) {
      unknown.push(`${own}${unit}`);
      builder.set(own, row.value, row.line);
      continue;
    }
    // the accumulator's tokens per joule leaves reasoning tokens out; the shared column counts them
    if (row.tag === 'output_tokens_per_joule' && accumulator && reasoning) {
      unknown.push(`output_tokens_per_joule_excl_reasoning${unit}`);
      builder.set('output_tokens_per_joule_excl_reasoning', scaleExact(row.value, factor), row.line);
      continue;
    }
    builder.set(shared[0], scaleExact(row.value, factor), row.line);
  }
}
