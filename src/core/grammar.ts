import type { DiagnosticSink } from './diagnostic.js';
import type { FormatId } from './format-ids.js';
import type { BenchRecord } from './records.js';
import type { RelPath } from './types.js';

/** The first bytes of a file, decoded and cleaned, for cheap detection. */
export interface TextHead {
  readonly path: RelPath;
  readonly head: string;
}

/**
 * A decoded file: `lines[i]` is line i+1 after cleaning (BOM, CRLF, tqdm `\r` redraws and ANSI
 * escapes removed). Cleaning never adds or removes lines, so line numbers are the original ones.
 */
export interface TextSource {
  readonly path: RelPath;
  readonly lines: readonly string[];
}

/** score in [0, 1]; 0 means "not mine". */
export interface Detection {
  readonly score: number;
  readonly reason: string;
}

/** The contract every grammars/<id>/index.ts implements. */
export interface Grammar {
  readonly id: FormatId;
  readonly title: string;
  /** Cheap, total, pure: looks only at the head. Never throws. */
  detect(input: TextHead): Detection;
  /** Total: partial records plus diagnostics for ANY input. Never throws on purpose. */
  parse(source: TextSource, sink: DiagnosticSink): BenchRecord[];
}

export const NOT_MINE: Detection = Object.freeze({ score: 0, reason: '' });
