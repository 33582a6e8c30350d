import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { RelPath } from '../../src/core/types.js';
import { BAR_TABLE_TITLES, type BarTableKind, barTableKind } from './v03-columns.js';
import { type BarTable, readBarTable } from './v03-table.js';
import type { BarFrame, BarLine } from './visitor.js';

/** A 0.2 / 0.3 table GuideLLM prints, with its title (`Benchmarks Stats`) when it has one. */
export interface KnownBarTable {
  readonly table: BarTable;
  readonly kind: BarTableKind;
  readonly title: string | null;
  /** Its title's line, else its top rule's. */
  readonly line: number;
}

/** What one 0.2 / 0.3 `guidellm benchmark` printed when it finished: its two tables, one run per benchmark. */
export interface BarReport {
  info: KnownBarTable | null;
  stats: KnownBarTable | null;
  readonly line: number;
  /** From the `backend_model='…'` of the `Benchmarks Metadata:` section printed above its tables. */
  readonly model: { readonly value: string; readonly line: number } | null;
}

/** `    Worker:type_='generative_requests_worker' backend_type='openai_http' … backend_model='acme/x-8b' …`. */
const BACKEND_MODEL = /\bbackend_model=(['"])([^'"\s]+)\1/;

/**
 * Reads the items of a console of GuideLLM 0.2 / 0.3 into reports, in document order: a section
 * title names the table right below it (only blank lines between), the `Benchmarks Metadata:`
 * section's indented lines name the model of the tables after them, and each `Benchmarks
 * Metadata:`, or a table that comes no later in GuideLLM's order than the one before it, starts
 * another report (a log of several commands, a write-up pasting several outputs).
 */
export class BarReportReader {
  readonly reports: BarReport[] = [];
  #current: BarReport | null = null;
  #model: BarReport['model'] = null;
  #title: { readonly text: string; readonly line: number } | null = null;
  #inMetadata = false;

  /** A `Benchmarks Metadata:` / `Info:` / `Stats:` title. */
  section(text: string, line: number): void {
    const title = text.trim().replace(/:$/, '');
    this.#inMetadata = title === 'Benchmarks Metadata';
    this.#title = this.#inMetadata ? null : { text: title, line };
    if (this.#inMetadata) {
      this.#current = null;
      this.#model = null;
    }
  }

  /** An indented line below a status or section title: the metadata's `Worker:` line names the model. */
  detail(text: string, line: number): void {
    const model = this.#inMetadata ? BACKEND_MODEL.exec(text)?.[2] : undefined;
    if (model) this.#model = { value: model, line };
  }

  /** Any other line: no title or metadata section goes on past it. */
  interrupt(): void {
    this.#title = null;
    this.#inMetadata = false;
  }

  /**
   * A frame from a `=` rule on: its table, added to its report, and the lines after the table
   * (no line of it); null for a frame that is no table (a `====` line of another tool), whose
   * lines are any other lines.
   */
  frame(frame: BarFrame, path: RelPath, sink: DiagnosticSink): { readonly rest: readonly BarLine[] } | null {
    const title = this.#title;
    this.interrupt();
    const table = readBarTable(frame.lines);
    const kind = table ? barTableKind(title?.text ?? null, table.headers) : null;
    if (table && kind) {
      const line = title?.line ?? table.line;
      // names over other columns' values would lie: the table stands (its report's other table's rows are alone), its rows are not read
      if (!table.headerAligned) sink.report('table/misaligned-header', { file: path, line, column: 1 }, title?.text ?? BAR_TABLE_TITLES[kind], table.columns);
      this.#add({ table: table.headerAligned ? table : { ...table, rows: [] }, kind, title: title?.text ?? null, line });
      return { rest: table.trailing };
    }
    if (title) {
      // a table GuideLLM titled that cannot be read: cut before its header, or with other columns
      const at = { file: path, line: title.line, column: 1 };
      if (!table || (!table.closed && table.columns === 0)) sink.report('block/truncated', at, `the header line of ${JSON.stringify(title.text)}`);
      else sink.report('parse/syntax', at, `the columns of ${title.text} (Benchmark| …)`, table.headers.map((h) => h.name).join('|'));
      return { rest: table?.trailing ?? [] };
    }
    if (!table || table.columns === 0) return null;
    sink.report('table/ignored-block', { file: path, line: table.line, column: 1 }, 'a table without a title');
    return { rest: table.trailing };
  }

  #add(table: KnownBarTable): void {
    const c = this.#current;
    // Info comes before Stats: another Info, or another Stats, is the next command's
    if (!c || c[table.kind] !== null || (table.kind === 'info' && c.stats !== null)) {
      this.#current = { info: null, stats: null, line: table.line, model: this.#model };
      this.#model = null;
      this.reports.push(this.#current);
    }
    (this.#current as BarReport)[table.kind] = table;
  }
}
