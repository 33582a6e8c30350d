import type { Spec as VegaSpec } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

type VlLogger = NonNullable<NonNullable<Parameters<typeof compile>[1]>['logger']>;

/** A compiled spec with every warning Vega-Lite logged while compiling it. */
export interface Compiled {
  readonly vega: VegaSpec;
  readonly warnings: readonly string[];
}

/** Compiles with a logger that collects warnings instead of printing them (tests demand zero). */
export function compileSpec(spec: TopLevelSpec): Compiled {
  const warnings: string[] = [];
  let level = 0;
  const logger = {
    level(l?: number) {
      if (l !== undefined) level = l;
      return l === undefined ? level : logger;
    },
    error(...args: readonly unknown[]) {
      warnings.push(`error: ${args.map(String).join(' ')}`);
      return logger;
    },
    warn(...args: readonly unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  const out = compile(spec, { logger: logger as unknown as VlLogger });
  return { vega: out.spec, warnings };
}
