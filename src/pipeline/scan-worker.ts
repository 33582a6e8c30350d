import { parentPort } from 'node:worker_threads';
import { seriesBuffers } from '../core/timeline-series.js';
import type { RelPath } from '../core/types.js';
import { type FileOutcome, processFileWithin } from './process-file.js';
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
  /** Files left to the main thread: each would be read whole and is above WORKER_MAX_WHOLE_BYTES. */
  readonly deferred: readonly ScanJob[];
}

/**
 * The largest file a worker reads whole (streamed server logs have no limit). Its text, the
 * values parsed from it and the strings JSON.parse makes stay well inside a worker's heap
 * (worker-pool.ts); larger ones are read by the main thread, whose heap is not capped.
 */
export const WORKER_MAX_WHOLE_BYTES = 16 * 1024 * 1024;

/** A worker thread: processes the batches it is sent, in order, one reply per batch. */
parentPort?.on('message', (batch: ScanBatch) => {
  const reply: { indices: number[]; outcomes: FileOutcome[]; deferred: ScanJob[] } = { indices: [], outcomes: [], deferred: [] };
  for (const j of batch.jobs) {
    const o = processFileWithin(j.abs, j.rel, j.regular, WORKER_MAX_WHOLE_BYTES);
    if (o === null) reply.deferred.push(j);
    else {
      reply.indices.push(j.index);
      reply.outcomes.push(withoutFieldLines(o));
    }
  }
  // a timeline's packed columns move to the main thread instead of being copied (a long log's are tens of MB)
  // (each buffer once: a buffer listed twice fails the whole message)
  const transfer = new Set(reply.outcomes.flatMap((o) => o.records.flatMap((r) => (r.record.kind === 'timeline' ? seriesBuffers(r.record.series) : []))));
  parentPort?.postMessage(reply satisfies ScanBatchResult, [...transfer]);
});
