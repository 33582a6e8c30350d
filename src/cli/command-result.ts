import type { Diagnostic } from '../core/diagnostic.js';

/** What a command hands back to main.ts, which alone prints diagnostics and sets the exit code. */
export interface CommandResult {
  readonly diagnostics: readonly Diagnostic[];
  /** A one-line summary for stderr (counts), or null. */
  readonly summary: string | null;
}
