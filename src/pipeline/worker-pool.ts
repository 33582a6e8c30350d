import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DiscoveredFile } from '../ingest/discover.js';
import type { FileOutcome } from './process-file.js';
import type { ScanBatch, ScanBatchResult } from './scan-worker.js';
import { shareStrings, StringPool } from './shared-strings.js';
import { withoutFieldLines } from './without-field-lines.js';

/** Below both of these, starting workers (each loads every grammar) costs more than it saves. */
export const POOL_THRESHOLD = Object.freeze({ minFiles: 48, minBytes: 48 * 1024 * 1024 });

const DEFAULTS = Object.freeze({
  ...POOL_THRESHOLD,
  /** Threads in all, this one included. */
  maxThreads: 4,
  /** Files go to workers in batches (one message each way), so thousands of small files do not cost a round trip each. */
  batchFiles: 64,
  batchBytes: 8 * 1024 * 1024,
  /** Batches queued per worker, so a worker never waits for the main thread between two batches. */
  inFlight: 2,
  /**
   * A log streamed in chunks allocates its size in short-lived strings: with a young generation
   * of 8 MB a worker spent a tenth of its time in scavenges. 32 MB costs about 25 MB of RSS while the
   * scan runs; the peak of a large campaign comes later, once the workers are gone.
   */
  youngGenerationMb: 32,
  /**
   * Also bounds each worker's old generation, so V8 collects before a worker grows far past what it
   * holds. A worker that runs out (a huge file) dies and its batch is done again in this thread.
   */
  oldGenerationMb: 128,
  /** Above this many runs (a large table to build next), the workers must have exited (their heaps gone) before the scan returns. */
  waitForExitRuns: 5000,
});

/** A listener defined out here, so it holds no closure over a scan's results. */
const ignore = (): void => {};

const WORKER_URL = new URL('./scan-worker.js', import.meta.url);
const LIMITS = { maxYoungGenerationSizeMb: DEFAULTS.youngGenerationMb, maxOldGenerationSizeMb: DEFAULTS.oldGenerationMb };
/** Workers under a TypeScript test runner would load .ts: only compiled JavaScript starts them. */
const CAN_USE_WORKERS = import.meta.url.endsWith('.js');
/** Workers started before the files are known (see prestartWorkers), taken by the next pool. */
let standby: Worker[] = [];

function threadCount(requested?: number): number {
  return requested ?? Math.min(DEFAULTS.maxThreads, availableParallelism());
}

/**
 * Starts the scan workers now, while the command line is parsed and the folder listed: a worker
 * takes a few hundred milliseconds to load the grammars, which a large scan would otherwise wait
 * for. They do not keep the process alive; a scan too small for workers stops them unused.
 */
export function prestartWorkers(): void {
  if (!CAN_USE_WORKERS || standby.length > 0) return;
  standby = Array.from({ length: threadCount() - 1 }, () => {
    const w = new Worker(WORKER_URL, { resourceLimits: LIMITS });
    w.on('error', ignore);
    // one that dies before it is taken (it could not load) is never given a batch: it would never answer
    w.once('exit', () => {
      standby = standby.filter((x) => x !== w);
    });
    w.unref();
    return w;
  });
}

function takeWorker(script: URL): Worker {
  const w = script === WORKER_URL ? standby.pop() : undefined;
  if (!w) return new Worker(script, { resourceLimits: LIMITS });
  w.removeAllListeners();
  w.ref();
  return w;
}

function dropStandby(): void {
  for (const w of standby.splice(0)) void w.terminate();
}

export type OnFileDone = (file: DiscoveredFile, outcome: FileOutcome) => void;

/**
 * Processes files on worker threads when there are enough of them, else in this thread. This
 * thread takes batches from the same queue as the workers (one worker fewer than cores), so a
 * 2-core machine starts one worker, not two, and this thread does not sit idle while it waits.
 * Results come back in the files' order whatever order the batches finish in.
 */
export async function processAll(
  files: readonly DiscoveredFile[],
  onDone: OnFileDone = () => {},
  requestedThreads?: number,
  /** The workers' script (a test gives one whose workers die). */
  workerScript: URL = WORKER_URL,
): Promise<FileOutcome[]> {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const threads = threadCount(requestedThreads);
  if (!CAN_USE_WORKERS || threads < 2 || (files.length < DEFAULTS.minFiles && bytes < DEFAULTS.minBytes)) {
    dropStandby();
    // loaded here, not at the top: a process that never scans never loads the grammars
    const { processFile } = await import('./process-file.js');
    return files.map((f) => {
      const o = processFile(f.abs, f.rel, f.regular);
      onDone(f, o);
      return o;
    });
  }
  const outcomes = await runPool(files, Math.min(threads - 1, files.length), onDone, workerScript);
  dropStandby();
  return outcomes;
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

async function runPool(files: readonly DiscoveredFile[], size: number, onDone: OnFileDone, workerScript: URL): Promise<FileOutcome[]> {
  // a hole until its file is done; the batches of a worker that died are done last, in this thread
  const results: (FileOutcome | undefined)[] = new Array(files.length);
  const strings = new StringPool();
  const record = (index: number, outcome: FileOutcome): void => {
    results[index] = shareStrings(outcome, strings);
    onDone(files[index] as DiscoveredFile, outcome);
  };
  const queue = batches(files);
  // Batches whose worker died (it failed or ran out of memory), and files a worker left to this
  // thread (too large to read whole in its heap): done here once the rest is.
  const orphans: ScanBatch[] = [];
  let next = 0;
  let accounted = 0;
  let finished = false;
  await new Promise<void>((resolve) => {
    const pool = Array.from({ length: size }, () => ({ worker: takeWorker(workerScript), sent: [] as ScanBatch[], alive: true }));
    const settle = (): void => {
      if (accounted < files.length || finished) return;
      finished = true;
      for (const p of pool) {
        // the listeners hold `results` (every record) until a worker exits: drop them now (peak RSS)
        p.worker.removeAllListeners();
        p.worker.on('error', ignore);
      }
      const exited = Promise.allSettled(pool.map((p) => p.worker.terminate()));
      let runs = 0;
      for (const o of results) runs += o?.report.runs ?? 0;
      if (runs > DEFAULTS.waitForExitRuns) {
        // a large table comes next: wait for the workers' heaps to be gone before it is built (peak RSS)
        void exited.then(() => resolve());
      } else {
        // nothing large comes next: tearing a worker's heap down takes tens of milliseconds, not worth waiting for
        for (const p of pool) p.worker.unref();
        resolve();
      }
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
        if (m.deferred.length > 0) orphans.push({ jobs: m.deferred });
        accounted += m.indices.length + m.deferred.length;
        feed(p);
        settle();
      });
      p.worker.on('error', () => lose(p));
      p.worker.on('exit', () => lose(p));
      for (let k = 0; k < DEFAULTS.inFlight; k++) feed(p);
    }
    // This thread loads the grammars while the workers start, then takes a batch at a time,
    // letting the workers' replies in between (they are fed from those replies).
    void import('./process-file.js').then(({ processFile }) => {
      const step = (): void => {
        const batch = queue[next];
        if (batch === undefined) return;
        next++;
        for (const j of batch.jobs) record(j.index, withoutFieldLines(processFile(j.abs, j.rel, j.regular)));
        accounted += batch.jobs.length;
        settle();
        setImmediate(step);
      };
      step();
    });
    settle();
  });
  if (orphans.length > 0) {
    const { processFile } = await import('./process-file.js');
    for (const b of orphans) for (const j of b.jobs) record(j.index, withoutFieldLines(processFile(j.abs, j.rel, j.regular)));
  }
  // every file was accounted for (a worker's reply, this thread's batches, the orphans): no hole is left
  return results as FileOutcome[];
}
