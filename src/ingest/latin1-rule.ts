import { wantsLine } from '../core/grammar.js';
import { anyLiteral } from '../core/literals.js';
import type { LineFilterSpec } from './line-filter.js';

/** The spec with its literals as latin1 (one character per byte), as chunks are searched. */
export class Latin1Rule {
  readonly skip: readonly string[];
  readonly anchors: readonly string[] | null;
  readonly anyAnchor: RegExp | null;
  readonly #asGrammar: Parameters<typeof wantsLine>[0];

  constructor(spec: LineFilterSpec) {
    const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
    this.skip = spec.skip.map(latin1);
    this.anchors = spec.anchors && spec.anchors.length > 0 ? spec.anchors.map(latin1) : null;
    this.anyAnchor = this.anchors ? anyLiteral(this.anchors) : null;
    this.#asGrammar = { skip: this.skip, ...(this.anchors ? { anchors: this.anchors } : {}) };
  }

  acceptsLine(line: string): boolean {
    return wantsLine(this.#asGrammar, line);
  }
}
