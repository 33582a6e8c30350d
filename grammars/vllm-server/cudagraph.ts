/**
 * The CUDA graph table of `--cudagraph-metrics` (vllm/compilation/cuda_graph.py,
 * `CUDAGraphLogging.log`, called by the stats logger after the stats, speculative-decoding and
 * KV-transfer lines with the same log function): ONE multi-line message,
 *
 *   **CUDAGraph Config Settings:**
 *   (blank)
 *   - Mode: <the configured mode>
 *   - Capture sizes: [<sizes>]
 *   (blank)
 *   **CUDAGraph Stats:**
 *   (blank)
 *   | Unpadded Tokens | Padded Tokens | Num Paddings | Runtime Mode | Count |
 *   |-----------------|---------------|--------------|--------------|-------|
 *   | <n>             | <n>           | <n>          | <mode>       | <n>   |   one row per shape seen
 *   (blank)
 *
 * vLLM's formatter repeats the logger prefix on every row; without it (logging configured by the
 * user) the rows are bare. Only the header carries an anchor the line filter knows, and the rows
 * the runtime mode (`FULL `, `PIECEWISE `, `NONE `): the settings, column header, separator and
 * blank rows may not reach the reader, so a table ends at the first line of its process that is
 * no part of one, at its blank line after a row, at the next stats line, or at the end of the log.
 */
import type { FieldValue } from '../../src/core/types.js';
import type { StatsPartial } from './stats.js';

/** What one message is to a table: its start, a line read for nothing, a data row, or none of these. */
export type TablePart = { readonly kind: 'start' } | { readonly kind: 'known' } | { readonly kind: 'row'; readonly row: Row | null };

export interface Row {
  readonly unpadded: number;
  readonly padded: number;
  readonly paddings: number;
  /** NONE, PIECEWISE or FULL, without the `CUDAGraphMode.` of an enum printed whole. */
  readonly mode: string;
  readonly count: number;
}

const START = '**CUDAGraph Config Settings:**';
const KNOWN = /^(?:\*\*CUDAGraph Stats:\*\*|- Mode: .*|- Capture sizes: .*|\| Unpadded Tokens +\| Padded Tokens +\| Num Paddings +\| Runtime Mode +\| Count +\||\|[-|]+\|)\s*$/;
const ROW = /^\| (\d+) +\| (\d+) +\| (-?\d+) +\| (?:CUDAGraphMode\.)?([A-Za-z_]+) +\| (\d+) +\|\s*$/;

/**
 * The part a message is, or null. Cheap for every other message: only one starting with `*`, `-`
 * or `|` is looked at further.
 */
export function tablePart(message: string): TablePart | null {
  const c = message.charCodeAt(0);
  if (c !== 42 && c !== 45 && c !== 124) return null; // '*' '-' '|'
  if (c === 42 && message.startsWith(START)) return message.trimEnd() === START ? { kind: 'start' } : null;
  if (c === 124) {
    const m = ROW.exec(message);
    if (m !== null) return { kind: 'row', row: { unpadded: Number(m[1]), padded: Number(m[2]), paddings: Number(m[3]), mode: (m[4] ?? '').toUpperCase(), count: Number(m[5]) } };
  }
  if (KNOWN.test(message)) return { kind: 'known' };
  // a row of the table's width whose cells are not read (cut short, a new column)
  return c === 124 && /^\|.*\|\s*$/.test(message) && /(?:FULL|PIECEWISE|NONE) /.test(message) ? { kind: 'row', row: null } : null;
}

/** One table being read: its sums so far. */
export class CudaGraphTable {
  readonly process: string;
  readonly line: number;
  readonly time: string | null;
  readonly extra: Record<string, FieldValue>;
  /** A data row was read: a blank line now ends the table. */
  inRows = false;
  #steps = 0;
  #unpadded = 0;
  #padded = 0;
  #paddings = 0;
  readonly #byMode = new Map<string, number>();
  readonly #bad: string[] = [];

  constructor(process: string, line: number, time: string | null, extra: Record<string, FieldValue>) {
    this.process = process;
    this.line = line;
    this.time = time;
    this.extra = extra;
  }

  add(row: Row | null): void {
    this.inRows = true;
    if (row === null) {
      if (this.#bad.length === 0) this.#bad.push('CUDAGraph row');
      return;
    }
    this.#steps += row.count;
    this.#unpadded += row.unpadded * row.count;
    this.#padded += row.padded * row.count;
    this.#paddings += row.paddings * row.count;
    this.#byMode.set(row.mode, (this.#byMode.get(row.mode) ?? 0) + row.count);
  }

  /**
   * The interval's totals: steps (forward passes the table counted) by runtime mode, the share run
   * under a CUDA graph, tokens before and after padding to a captured size, and the padded share.
   */
  partial(): StatsPartial {
    const fields: Record<string, FieldValue> = {};
    if (this.#steps > 0) {
      fields.cudagraph_steps = this.#steps;
      for (const [mode, n] of this.#byMode) fields[`cudagraph_${mode === 'NONE' ? 'eager' : mode.toLowerCase()}_steps`] = n;
      fields.cudagraph_usage = (this.#steps - (this.#byMode.get('NONE') ?? 0)) / this.#steps;
      fields.cudagraph_unpadded_tokens = this.#unpadded;
      fields.cudagraph_padded_tokens = this.#padded;
      fields.cudagraph_padding_tokens = this.#paddings;
      if (this.#padded > 0) fields.cudagraph_padding_fraction = this.#paddings / this.#padded;
    }
    return { kind: 'cudagraph', fields, bad: [...this.#bad] };
  }
}
