import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DiscoveredFile } from '../ingest/discover.js';
import type { FileOutcome } from './process-file.js';
import type { ScanBatch, ScanBatchResult } from './scan-worker.js';

const DEFAULTS = Object.freeze({
  /** Below these, starting workers (each loads every grammar) costs more than it saves. */
  minFiles: 48,
  minBytes: 48 * 1024 * 1024,
  maxWorkers: 4,
  /** Files go to workers in batches (one message each way), so thousands of small files do not cost a round trip each. */
  batchFiles: 64,
  batchBytes: 8 * 1024 * 1024,
  /** Batches queued per worker, so a worker never waits for the main thread between two batches. */
  inFlight: 2,
  /** A smaller young generation than V8's default keeps each worker's memory low (peak RSS target). */
  youngGenerationMb: 8,
  /**
   * Also bounds each worker's old generation, so V8 collects before a worker grows far past what it
   * holds. A worker that runs out (a huge file) dies and its batch is done again in this thread.
   */
  oldGenerationMb: 128,
});

/** A listener defined out here, so it holds no closure over a scan's results. */
const ignore = (): void => {};

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
    // loaded here, not at the top: when workers do the parsing, this thread never loads the grammars
    const { processFile } = await import('./process-file.js');
    return files.map((f) => {
      const o = processFile(f.abs, f.rel, f.regular);
      onDone(f, o);
      return o;
    });
  }
  return runPool(files, Math.min(workers, files.length), workerUrl, onDone);
}

/** Groups the files, largest first (so one big log does not start last and leave a core idle), into batches. */
function batches(files: readonly DiscoveredFile[]): ScanBatch[] {
  const order = files.map((_, i) => i).sort((a, b) => (files[b]?.size ?? 0) - (files[a]?.size ?? 0) || a - b);
  const out: ScanBatch[] = [];
  let current: ScanBatch['jobs'][number][] = [];
  let bytes = 0;
  for (const index of order) {
    const f = files[index] as DiscoveredFile;
    current.push({ index, abs: f.abs, rel: f.rel, regular: f.regular });
    bytes += f.size;
    if (current.length >= DEFAULTS.batchFiles || bytes >= DEFAULTS.batchBytes) {
      out.push({ jobs: current });
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) out.push({ jobs: current });
  return out;
}

async function runPool(files: readonly DiscoveredFile[], size: number, url: URL, onDone: OnFileDone): Promise<FileOutcome[]> {
  const results: FileOutcome[] = new Array(files.length);
  const record = (index: number, outcome: FileOutcome): void => {
    results[index] = outcome;
    onDone(files[index] as DiscoveredFile, outcome);
  };
  const queue = batches(files);
  // Batches whose worker died (it failed or ran out of memory): done again in this thread.
  const orphans: ScanBatch[] = [];
  let next = 0;
  let accounted = 0;
  await new Promise<void>((resolve) => {
    const limits = { maxYoungGenerationSizeMb: DEFAULTS.youngGenerationMb, maxOldGenerationSizeMb: DEFAULTS.oldGenerationMb };
    const pool = Array.from({ length: size }, () => ({ worker: new Worker(url, { resourceLimits: limits }), sent: [] as ScanBatch[], alive: true }));
    const settle = (): void => {
      if (accounted < files.length) return;
      for (const p of pool) {
        // the listeners hold `results` (every record) until a worker exits: drop them now (peak RSS)
        p.worker.removeAllListeners();
        p.worker.on('error', ignore);
      }
      // wait for the workers to exit, so their heaps are gone before the table is built (peak RSS)
      void Promise.allSettled(pool.map((p) => p.worker.terminate())).then(() => resolve());
    };
    const feed = (p: (typeof pool)[number]): void => {
      const batch = queue[next++];
      if (batch === undefined) return;
      p.sent.push(batch);
      p.worker.postMessage(batch);
    };
    const lose = (p: (typeof pool)[number]): void => {
      if (!p.alive || accounted === files.length) return;
      p.alive = false;
      for (const b of p.sent.splice(0)) {
        orphans.push(b);
        accounted += b.jobs.length;
      }
      if (pool.every((q) => !q.alive)) {
        for (const b of queue.slice(next)) {
          orphans.push(b);
          accounted += b.jobs.length;
        }
        next = queue.length;
      }
      settle();
    };
    for (const p of pool) {
      p.worker.on('message', (m: ScanBatchResult) => {
        p.sent.shift();
        m.indices.forEach((index, k) => record(index, m.outcomes[k] as FileOutcome));
        accounted += m.indices.length;
        feed(p);
        settle();
      });
      p.worker.on('error', () => lose(p));
      p.worker.on('exit', () => lose(p));
      for (let k = 0; k < DEFAULTS.inFlight; k++) feed(p);
    }
    settle();
  });
  if (orphans.length > 0) {
    const { processFile } = await import('./process-file.js');
    for (const b of orphans) for (const j of b.jobs) record(j.index, processFile(j.abs, j.rel, j.regular));
  }
  return results;
}
