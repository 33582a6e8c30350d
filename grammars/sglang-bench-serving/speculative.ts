import type { TextSource } from '../../src/core/grammar.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import type { GridValue, SpecGridPoint } from '../_shared/sglang-spec-grid.js';

/**
 * SGLang's `scripts/playground/bench_speculative.py` prints, per grid point (sgl-project/sglang
 * 01d2a3d0, 96fd6bf0):
 *
 *     Start i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0
 *     <server output, the warm-up batch's result block, the measured batch's result block>
 *     Finish i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0, speed=161.03 token/s, step_time=6.21 ms
 *
 * (`f"Start {i=}: {batch_size=}, …"`, `{speed=:.2f} token/s, step_time={step_time * 1000:.2f} ms`).
 */
const START = /(?:^|\s)Start i=(\d+): (.*)$/;
const FINISH = /(?:^|\s)Finish i=(\d+): (.*)$/;
const INTS = ['batch_size', 'steps', 'topk', 'num_draft_tokens'] as const;
const INT_VALUES = INTS.map((name) => [name, new RegExp(`\\b${name}=(\\d+)\\b`)] as const);
const SPEED = /\bspeed=(\d+(?:\.\d+)?) token\/s/;
const STEP_TIME = /\bstep_time=(\d+(?:\.\d+)?) ms\b/;

/** One grid point's stretch of the console: its Start line, and its Finish line if it printed one. */
export interface GridSegment {
  /** `i=N` as printed. */
  readonly index: string;
  /** 1-based lines: the Start line (or, for a Finish with no Start, the line after which its grid point ran; 0: the file's start). */
  readonly start: number;
  /** The Finish line, or null: the script was killed or the server failed before it (then `end` is the next Start, or past the file). */
  readonly finish: number | null;
  readonly end: number;
  readonly point: SpecGridPoint;
  readonly speed: GridValue | undefined;
  readonly stepTimeMs: GridValue | undefined;
  /** `batch_size=1, steps=0, topk=0, num_draft_tokens=0` as the Start line prints it. */
  readonly settings: string;
}

interface Open {
  readonly index: string;
  readonly line: number;
  readonly ints: string;
  readonly settings: string;
  readonly point: SpecGridPoint;
}

/** The grid points of a bench_speculative.py console, in order; empty for any other file. */
export function gridSegments(source: TextSource): GridSegment[] {
  const segments: GridSegment[] = [];
  let open: Open | null = null;
  const close = (end: number): void => {
    if (open) segments.push({ index: open.index, start: open.line, finish: null, end, point: open.point, speed: undefined, stepTimeMs: undefined, settings: open.settings });
    open = null;
  };
  const lines = source.lines;
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n] as string;
    if (!raw.includes(' i=')) continue;
    const text = stripEmbedding(raw);
    const line = n + 1;
    const started = START.exec(text);
    if (started?.[1] !== undefined && started[2] !== undefined) {
      const ints = intsOf(started[2]);
      if (ints.values.batch_size === undefined) continue;
      close(line);
      const point = Object.fromEntries(Object.entries(ints.values).map(([k, v]) => [k, { value: v, line }])) as SpecGridPoint;
      open = { index: started[1], line, ints: ints.key, settings: ints.text, point };
      continue;
    }
    const finished = FINISH.exec(text);
    if (finished?.[1] === undefined || finished[2] === undefined) continue;
    const current: Open | null = open;
    if (!current) {
      // a Finish whose Start is not in the file (a log kept from its middle, `tail -n`): its grid
      // point, which it prints again, ran from where the one before it finished
      const orphan = orphanSegment(finished[1], finished[2], line, segments.at(-1)?.end ?? 0);
      if (orphan) segments.push(orphan);
      continue;
    }
    // its own Start's Finish: the same i and settings
    if (current.index !== finished[1] || current.ints !== intsOf(finished[2]).key) continue;
    segments.push({
      index: current.index,
      start: current.line,
      finish: line,
      end: line,
      point: current.point,
      speed: numberAt(SPEED, finished[2], line),
      stepTimeMs: numberAt(STEP_TIME, finished[2], line),
      settings: current.settings,
    });
    open = null;
  }
  close(lines.length + 1);
  return segments;
}

/** A grid point known only by its Finish line (at `line`), from just after `after` (a line; 0: the file's start). */
function orphanSegment(index: string, rest: string, line: number, after: number): GridSegment | null {
  const ints = intsOf(rest);
  if (ints.values.batch_size === undefined) return null;
  const point = Object.fromEntries(Object.entries(ints.values).map(([k, v]) => [k, { value: v, line }])) as SpecGridPoint;
  return { index, start: after, finish: line, end: line, point, speed: numberAt(SPEED, rest, line), stepTimeMs: numberAt(STEP_TIME, rest, line), settings: ints.text };
}

/** The batch size and knobs a Start / Finish line prints, and a key to tell a Finish is its Start's. */
function intsOf(rest: string): { values: Partial<Record<(typeof INTS)[number], number>>; key: string; text: string } {
  const values: Partial<Record<(typeof INTS)[number], number>> = {};
  const parts: string[] = [];
  for (const [name, re] of INT_VALUES) {
    const m = re.exec(rest);
    if (!m?.[1]) continue;
    values[name] = Number(m[1]);
    parts.push(`${name}=${m[1]}`);
  }
  return { values, key: JSON.stringify(values), text: parts.join(', ') };
}

function numberAt(re: RegExp, rest: string, line: number): GridValue | undefined {
  const m = re.exec(rest);
  const v = m?.[1] === undefined ? Number.NaN : Number(m[1]);
  return Number.isFinite(v) ? { value: v, line } : undefined;
}
