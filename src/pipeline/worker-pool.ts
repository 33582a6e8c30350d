import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DiscoveredFile } from '../ingest/discover.js';
import { type FileOutcome, processFile } from './process-file.js';

const DEFAULTS = Object.freeze({
  /** Below these, starting workers (each loads every grammar) costs more than it saves. */
  minFiles: 48,
  minBytes: 48 * 1024 * 1024,
  maxWorkers: 4,
});

export type OnFileDone = (file: DiscoveredFile, outcome: FileOutcome) => void;

/**
 * Processes files on worker threads (one per core) when there are enough of them, else in this
 * thread. Results come back in the files' order whatever order the workers finish in.
 */
export async function processAll(files: readonly DiscoveredFile[], onDone: OnFileDone = () => {}): Promise<FileOutcome[]> {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const workers = Math.min(DEFAULTS.maxWorkers, availableParallelism());
  const workerUrl = new URL('./scan-worker.js', import.meta.url);
  // Workers need compiled JavaScript; under a TypeScript test runner this module is .ts.
  const canUseWorkers = import.meta.url.endsWith('.js') && workers > 1;
  if (!canUseWorkers || (files.length < DEFAULTS.minFiles && bytes < DEFAULTS.minBytes)) {
    return files.map((f) => {
      const o = processFile(f.abs, f.rel, f.regular);
      onDone(f, o);
      return o;
    });
  }
  return runPool(files, Math.min(workers, files.length), workerUrl, onDone);
}

function runPool(files: readonly DiscoveredFile[], size: number, url: URL, onDone: OnFileDone): Promise<FileOutcome[]> {
  const results: FileOutcome[] = new Array(files.length);
  // Largest files first, so one big log does not start last and leave a core idle.
  const order = files.map((_, i) => i).sort((a, b) => (files[b]?.size ?? 0) - (files[a]?.size ?? 0) || a - b);
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const pool = Array.from({ length: size }, () => new Worker(url));
    const finish = (error?: unknown): void => {
      for (const w of pool) void w.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const feed = (w: Worker): void => {
      const index = order[next++];
      if (index === undefined) return;
      const f = files[index] as DiscoveredFile;
      w.postMessage({ index, abs: f.abs, rel: f.rel, regular: f.regular });
    };
    for (const w of pool) {
      w.on('message', (m: { index: number; outcome: FileOutcome }) => {
        results[m.index] = m.outcome;
        onDone(files[m.index] as DiscoveredFile, m.outcome);
        if (++done === files.length) finish();
        else feed(w);
      });
      w.on('error', (e) => finish(e));
      feed(w);
    }
    if (files.length === 0) finish();
  });
}
