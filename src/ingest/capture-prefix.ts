import type { TextSource } from '../core/grammar.js';

/**
 * What a log collector writes before every line of a program's output, when a benchmark or a
 * server runs in a container or a CI job:
 *
 * - `docker logs -t`, `kubectl logs --timestamps`, GitHub Actions' raw logs: an RFC 3339 time,
 *   `2026-01-05T10:00:00.123456789Z `;
 * - `docker compose logs`: the container's name and a bar, `vllm-1  | ` (Compose v1:
 *   `project_vllm_1  | `), the time after it with `-t`;
 * - `kubectl logs --prefix`: `[pod/bench-7c9f/bench] `;
 * - `journalctl`: the time, the host and the process, `Jan 05 10:00:00 gpu-7 vllm[2011]: `;
 * - `mpirun --tag-output` (Open MPI, PRRTE): the job and rank and the stream, `[1,0]<stdout>:`;
 * - a log viewer's or a shell pipe's local time and a bar, `2026-05-01 18:50:59.628 | ` (read off
 *   for every grammar: none reads this time, which is often another zone's than the log's own).
 *
 * `docker compose up` starts its output with `Attaching to <containers>`, no prefix: passed over.
 *
 * No grammar reads these but the vLLM server's, which takes the year from docker's time (its
 * `INFO 12-31 23:59:40` lines have none) and tells processes apart by journald's: it is given its
 * lines with those kept (Grammar.readsTimestampPrefix).
 */
const TIMESTAMP = /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)(?: |$)|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [\w.@-]+\[\d+\]: ?)/;
/** `mpirun --tag-output`'s tag: `[jobid,rank]<stream>:`, no space after it. */
export const MPI_TAG = /^\[\d+,\d+\]<std(?:out|err|diag)>: ?/;
const CONTAINER = new RegExp(String.raw`^(?:(?:[A-Za-z][\w.-]*[-_]\d+ *\||\[pod\/[^\]\s]+\]|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? \|)(?: |$)|${MPI_TAG.source.slice(1)})`);
const COMPOSE_HEADER = /^Attaching to \S/;

/** Lines read to decide whether a file is a collector's capture, and how many of them must carry a prefix. */
const SAMPLE_LINES = 200;
const MIN_SHARE = 0.9;
const MIN_LINES = 3;

/** How a captured file's lines are given to a grammar: without any prefix, or with a timestamp kept. */
export type CaptureView = 'bare' | 'timestamped';

/** The length of the collector's prefixes at the start of a line (0: none), a timestamp left out of it for the `timestamped` view. */
function prefixLength(line: string, view: CaptureView): number {
  const container = CONTAINER.exec(line)?.[0].length ?? 0;
  if (view === 'timestamped') return container;
  const rest = container > 0 ? line.slice(container) : line;
  return container + (TIMESTAMP.exec(rest)?.[0].length ?? 0);
}

/**
 * Whether the lines are a collector's capture: nearly all of the first non-blank ones start with
 * one of its prefixes. The first line without one answers for almost every other file.
 */
export function isCapture(lines: readonly string[]): boolean {
  let seen = 0;
  let prefixed = 0;
  for (const line of lines) {
    if (line.trim() === '' || (seen === 0 && COMPOSE_HEADER.test(line))) continue;
    const has = prefixLength(line, 'bare') > 0;
    if (seen === 0 && !has) return false;
    seen++;
    if (has) prefixed++;
    if (seen >= SAMPLE_LINES) break;
  }
  return prefixed >= MIN_LINES && prefixed >= MIN_SHARE * seen;
}

/** A line of a capture as `view` gives it. */
export function withoutCapturePrefix(line: string, view: CaptureView = 'bare'): string {
  const n = prefixLength(line, view);
  return n > 0 ? line.slice(n) : line;
}

/** A capture's lines as `view` gives them, each at its own line number. */
export function captureView(source: TextSource, view: CaptureView): TextSource {
  const lines = source.lines.map((l) => withoutCapturePrefix(l, view));
  if (!source.overwritten) return { ...source, lines };
  return { ...source, lines, overwritten: new Map([...source.overwritten].map(([i, text]) => [i, withoutCapturePrefix(text, view)])) };
}
