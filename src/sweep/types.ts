import type { Expr } from './expr.js';

export const ENGINES = ['vllm', 'sglang', 'trtllm'] as const;
export type Engine = (typeof ENGINES)[number];

/** A flag value as written in a sweep file: turned into argv by `toArgv`. */
export type ArgValue = string | number | boolean | null | readonly ArgValue[] | { readonly [key: string]: ArgValue };
export type ArgMap = Readonly<Record<string, ArgValue>>;

/** One named server configuration: its flags override the common server arguments. */
export interface Variant {
  readonly name: string;
  readonly serverArgs: ArgMap;
}

/** A validated sweep file (see README "Sweep files"). */
export interface Sweep {
  readonly engine: Engine;
  readonly model: string;
  readonly port: number;
  readonly host: '127.0.0.1';
  readonly healthPath: string;
  readonly serverArgs: ArgMap;
  readonly variants: readonly Variant[];
  readonly benchArgs: ArgMap;
  readonly concurrency: readonly number[];
  readonly numPrompts: Expr;
  readonly requestRate: Expr | 'inf';
  readonly repeats: number;
  readonly timeouts: { readonly startupS: number; readonly benchmarkS: number; readonly shutdownGraceS: number };
  readonly env: Readonly<Record<string, string>>;
  readonly executables: { readonly server: readonly string[]; readonly bench: readonly string[] };
  readonly slurm: Readonly<Record<string, string>>;
}
