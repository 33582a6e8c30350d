import { createHash } from 'node:crypto';

/**
 * Stable id of a run: the same file and line always give the same id (schema.md §1). Several runs
 * can start on one line (results written back to back without a newline, a compact JSON file of
 * many results): the n-th of them, n ≥ 2, hashes `file:line#n`, so each has an id of its own.
 */
export function runId(sourceFile: string, sourceLine: number, nth = 1): string {
  return createHash('sha1').update(nth === 1 ? `${sourceFile}:${sourceLine}` : `${sourceFile}:${sourceLine}#${nth}`).digest('hex').slice(0, 12);
}

/**
 * runId for runs taken in their files' order: counts the runs met at each line of the file at
 * hand (a file's runs come together), so the second at a line gets `#2`.
 */
export function runIdsInOrder(): (sourceFile: string, sourceLine: number) => string {
  let file = '';
  let seen = new Map<number, number>();
  return (sourceFile, sourceLine) => {
    if (sourceFile !== file) {
      file = sourceFile;
      seen = new Map();
    }
    const nth = (seen.get(sourceLine) ?? 0) + 1;
    seen.set(sourceLine, nth);
    return runId(sourceFile, sourceLine, nth);
  };
}
