import { createHash } from 'node:crypto';

/** Stable id of a run: the same file and line always give the same id (schema.md §1). */
export function runId(sourceFile: string, sourceLine: number): string {
  return createHash('sha1').update(`${sourceFile}:${sourceLine}`).digest('hex').slice(0, 12);
}
