import { parentPort } from 'node:worker_threads';
import type { RelPath } from '../core/types.js';
import { processFile } from './process-file.js';

/** A worker thread: processes the files it is sent, one message per file, in order. */
interface Job {
  readonly index: number;
  readonly abs: string;
  readonly rel: RelPath;
  readonly regular: boolean;
}

parentPort?.on('message', (job: Job) => {
  parentPort?.postMessage({ index: job.index, outcome: processFile(job.abs, job.rel, job.regular) });
});
