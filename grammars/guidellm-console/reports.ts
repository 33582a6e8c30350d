import type { ColumnHeader, TableKind } from './columns.js';
import type { PipeTable } from './table.js';

/** A table GuideLLM prints, with the column headers of each of its sections. */
export interface KnownTable {
  readonly table: PipeTable;
  readonly kind: TableKind;
  readonly headers: readonly (readonly ColumnHeader[])[];
}

/** The tables one `guidellm benchmark` printed when it finished: one run per benchmark row. */
export interface Report {
  readonly tables: KnownTable[];
  readonly line: number;
  /** From the `backend validated with model …` line printed before its tables. */
  readonly model: { readonly value: string; readonly line: number } | null;
}

/** The order GuideLLM prints its tables in: a table that comes no later than the one before it starts the next report. */
const ORDER: Readonly<Record<TableKind, number>> = { summary: 0, modality: 1, tokens: 2, latency: 3, throughput: 4 };

/**
 * Groups tables into reports, in document order: a log of several commands, or a write-up
 * pasting several outputs, gives one report each. The model line printed before a report's tables
 * is that report's.
 */
export class ReportCollector {
  readonly reports: Report[] = [];
  #current: Report | null = null;
  #model: Report['model'] = null;

  model(value: string, line: number): void {
    this.#model = { value, line };
  }

  add(table: KnownTable): void {
    const last = this.#current?.tables.at(-1);
    // several modality tables (text, image, …) follow one another in one report
    const next = last === undefined || ORDER[table.kind] < ORDER[last.kind] || (table.kind === last.kind && table.kind !== 'modality');
    if (next || this.#current === null) {
      this.#current = { tables: [], line: table.table.line, model: this.#model };
      this.#model = null;
      this.reports.push(this.#current);
    }
    this.#current.tables.push(table);
  }
}
