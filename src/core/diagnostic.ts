import { type DiagnosticCode, MESSAGES, type MessageArgs } from './messages.js';
import type { Severity } from './severity.js';
import type { RelPath, SourcePos } from './types.js';

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly file: RelPath;
  readonly line: number;
  readonly column: number;
}

/** Where stages send problems. Passed explicitly: there is no global logger. */
export interface DiagnosticSink {
  report<C extends DiagnosticCode>(code: C, at: SourcePos, ...args: MessageArgs<C>): void;
}

const DEFAULTS = Object.freeze({ maxPerCodePerFile: 50 });

/** A sink that keeps what it is told, capping identical codes per file so a bad log cannot flood it. */
export class DiagnosticCollector implements DiagnosticSink {
  readonly #items: Diagnostic[] = [];
  readonly #counts = new Map<string, number>();

  report<C extends DiagnosticCode>(code: C, at: SourcePos, ...args: MessageArgs<C>): void {
    const key = `${at.file}\0${code}`;
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    if (n > DEFAULTS.maxPerCodePerFile) return;
    const spec = MESSAGES[code] as { severity: Severity; text: (...a: MessageArgs<C>) => string };
    this.#items.push({
      code,
      severity: spec.severity,
      message: spec.text(...args),
      file: at.file,
      line: Math.max(1, Math.trunc(Number.isFinite(at.line) ? at.line : 1)),
      column: Math.max(1, Math.trunc(Number.isFinite(at.column) ? at.column : 1)),
    });
  }

  /**
   * Everything reported, sorted by file, line, column, code; with a note per capped code, of that
   * code's severity, so a flood of warnings says how large it was where the warnings show (an
   * info would show only with --verbose).
   */
  list(): Diagnostic[] {
    const capped: Diagnostic[] = [];
    for (const [key, n] of this.#counts) {
      if (n <= DEFAULTS.maxPerCodePerFile) continue;
      const [file, code] = key.split('\0') as [RelPath, DiagnosticCode];
      const first = this.#items.find((d) => d.file === file && d.code === code);
      capped.push({
        code,
        severity: MESSAGES[code].severity,
        message: `… and ${n - DEFAULTS.maxPerCodePerFile} more ${code} not listed`,
        file,
        line: first?.line ?? 1,
        column: 1,
      });
    }
    return sortDiagnostics([...this.#items, ...capped]);
  }
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort(compareDiagnostics);
}

/**
 * A line for a terminal: the control characters a log carried into a message or a summary (an
 * escape sequence in a model name, a carriage return) are written as `\u001b`, never acted on.
 * Tabs stay.
 */
export function inertLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
  return text.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `file:line:col: severity code message`, the compiler-style line the CLI prints on stderr. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${displayPath(d.file)}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}`;
}

/** A path as printed: quoted JSON-style when it holds control characters (a newline in a file name). */
export function displayPath(file: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
  return /[\x00-\x1f\x7f]/.test(file) ? JSON.stringify(file) : file;
}
