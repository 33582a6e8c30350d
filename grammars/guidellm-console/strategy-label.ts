/**
 * The label GuideLLM 0.2 / 0.3 gives a benchmark in its console tables: the strategy type with the
 * load it was run at (`scheduler/strategy.py`, `strategy_display_str` and the strategies' `__str__`):
 * `synchronous`, `throughput`, `concurrent@<streams>`, `constant@<rate:.2f>`, `poisson@<rate:.2f>`.
 * A strategy given by its type alone prints `concurrent@##` / `constant@#.##`: no load to read.
 */
export interface StrategyLabel {
  /** The type, as guidellm-json reads `config.strategy.type_`. */
  readonly strategy: string;
  /** `constant@R` / `poisson@R`, req/s (two decimals as printed). */
  readonly requestRate?: number;
  /** `concurrent@N`; 1 for `synchronous`, which sends one request at a time. */
  readonly maxConcurrency?: number;
}

const LABEL = /^(synchronous|throughput|concurrent|constant|poisson)(?:@(\S+))?$/;
/** The load GuideLLM prints (`strategy_display_str`) for a strategy it has no instance of: `constant@#.##`, `concurrent@##`; no value. */
const UNSTATED_LOAD = /^#+(?:\.#+)?$/;
const RATE = /^\d+(?:\.\d+)?$/;
const STREAMS = /^\d+$/;

/** The strategy and load of a label; null for anything GuideLLM does not print as one. */
export function parseStrategyLabel(label: string): StrategyLabel | null {
  const m = LABEL.exec(label.trim());
  const strategy = m?.[1];
  if (!strategy) return null;
  const load = m[2];
  if (load === undefined) {
    if (strategy === 'synchronous') return { strategy, maxConcurrency: 1 };
    // a rate or a number of streams is what these are defined by: `constant` alone is no label GuideLLM prints
    return strategy === 'throughput' ? { strategy } : null;
  }
  if (UNSTATED_LOAD.test(load)) return strategy === 'concurrent' || strategy === 'constant' || strategy === 'poisson' ? { strategy } : null;
  if (strategy === 'concurrent' && STREAMS.test(load)) return { strategy, maxConcurrency: Number(load) };
  if ((strategy === 'constant' || strategy === 'poisson') && RATE.test(load)) return { strategy, requestRate: Number(load) };
  return null;
}
