import type { Outcome } from './manifest.js';

/** What a sweep reports while it runs (the CLI turns these into a progress line on a TTY). */
export type SweepEvent =
  | { readonly kind: 'server-start'; readonly variant: string; readonly index: number; readonly total: number }
  | { readonly kind: 'server-ready'; readonly variant: string }
  | { readonly kind: 'bench-start'; readonly variant: string; readonly concurrency: number; readonly repeat: number; readonly done: number; readonly runs: number }
  | { readonly kind: 'variant-skipped'; readonly variant: string }
  | { readonly kind: 'variant-end'; readonly variant: string; readonly outcome: Outcome; readonly error: string | null };
