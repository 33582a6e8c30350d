import { Latin1Rule } from './latin1-rule.js';
import type { ChunkFilter, LineFilterSpec } from './line-filter.js';
import type { ScanKernel } from './scan-kernel.js';

/**
 * The kernel (src/ingest/scan-kernel.ts) drops the lines holding a skip literal without a string or
 * a call for any of them; the lines it keeps (few, in an access-heavy log) are searched for anchors
 * here. When it keeps many, the chunk is made a string once and the lines are slices of it.
 */
export class KernelChunkFilter implements ChunkFilter {
  start = 0;
  end = 0;
  passed = 0;
  readonly chunk: Buffer;
  readonly #rule: Latin1Rule;
  readonly #kernel: ScanKernel;
  #n = 0;
  #kept = 0;
  #k = 0;
  /** Index (newlines from `from`) of the last line found; -1 before the first. */
  #last = -1;
  #text: string | null = null;

  constructor(spec: LineFilterSpec, kernel: ScanKernel) {
    this.#rule = new Latin1Rule(spec);
    this.#kernel = kernel;
    this.chunk = kernel.chunk;
  }

  load(n: number, from: number): void {
    this.#n = n;
    this.#kept = this.#kernel.scan(from, n);
    this.#k = 0;
    this.#last = -1;
    this.#text = null;
  }

  next(): boolean {
    const kernel = this.#kernel;
    const anyAnchor = this.#rule.anyAnchor;
    while (this.#k < this.#kept) {
      const k = this.#k++;
      const start = kernel.start(k);
      const end = kernel.end(k);
      if (anyAnchor !== null && !anyAnchor.test(this.#latin1(start, end))) continue;
      const index = kernel.index(k);
      this.passed = index - this.#last;
      this.#last = index;
      this.start = start;
      this.end = end;
      return true;
    }
    this.passed = kernel.lines - 1 - this.#last;
    this.#last = kernel.lines - 1;
    return false;
  }

  get rest(): number {
    return this.#kernel.rest;
  }

  acceptsLine(line: string): boolean {
    return this.#rule.acceptsLine(line);
  }

  #latin1(start: number, end: number): string {
    if (this.#kept <= 16) return this.chunk.toString('latin1', start, end);
    this.#text ??= this.chunk.toString('latin1', 0, this.#n);
    return this.#text.slice(start, end);
  }
}
