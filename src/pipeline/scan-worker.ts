import { parentPort } from 'node:worker_threads';
import type { RelPath } from '../core/types.js';
import { type FileOutcome, processFile } from './process-file.js';
import { withoutFieldLines } from './without-field-lines.js';

/** One file to process; `index` is its place in the scan's file list. */
export interface ScanJob {
  readonly index: number;
  readonly abs: string;
  readonly rel: RelPath;
  readonly regular: boolean;
}

/** Files sent to a worker in one message. */
export interface ScanBatch {
  readonly jobs: readonly ScanJob[];
}

/** A batch's outcomes, in the batch's order, sent back in one message. */
export interface ScanBatchResult {
  readonly indices: readonly number[];
  readonly outcomes: readonly FileOutcome[];
}

/** A worker thread: processes the batches it is sent, in order, one reply per batch. */
parentPort?.on('message', (batch: ScanBatch) => {
  const reply: ScanBatchResult = {
    indices: batch.jobs.map((j) => j.index),
    outcomes: batch.jobs.map((j) => withoutFieldLines(processFile(j.abs, j.rel, j.regular))),
  };
  parentPort?.postMessage(reply);
});
