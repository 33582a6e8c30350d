/**
 * A streaming tracker of Python crashes in server logs (vLLM, SGLang, TensorRT-LLM). Fed one
 * prefix-stripped line at a time, it recognizes `Traceback (most recent call last):` spans and
 * their final `ExcType: message` line, chained tracebacks, pydantic `ValidationError` messages
 * continued on indented lines, and bare error lines without a traceback. It holds no lines, only
 * the state of the traceback it is in, so memory stays bounded on logs of any size.
 */
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FailureRecord } from '../core/records.js';
import type { RelPath } from '../core/types.js';

const TRACEBACK = /^Traceback \(most recent call last\):\s*$/;
const CHAIN = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$/;
/** `ExcType: message`, dotted types and Ray's `RayTaskError(ValueError)`; no space before the colon. */
const EXCEPTION_LINE = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:\([\w.]+\))?)(?::(?:\s(.*))?)?\s*$/;
/** Bare exception lines outside a traceback must name an error-like type and carry a message. */
const BARE_TYPE = /(?:Error|Exception|Interrupt|SystemExit)(?:\([\w.]+\))?$/;
const PYDANTIC_LOC = /^[\w.[\]-]+$/;
const PYDANTIC_DETAIL = /\s*\[type=[^\]]*\]?\s*$/;
const CUDA_OOM = /CUDA out of memory/;
const ENGINE_DEAD = /\b((?:[A-Za-z_]\w*\.)*EngineDeadError)\b:?\s*(.*)$/;
const MAX_MESSAGE = 500;
/** Lines of foreign output tolerated inside a traceback before it is given up as cut short. */
const MAX_NOISE = 50;

/**
 * What the exception lines hold whose type names none of `Error`, `Exception`, `Interrupt` and
 * `SystemExit` (the server grammars' own anchors): Python's `StopIteration`, `StopAsyncIteration`
 * and `GeneratorExit`, httpx's `ReadTimeout` and kin, and types known by their module only
 * (`triton.runtime.errors.OutOfResources`, `ray.exceptions.RayActorError`). A stream prefilter
 * that passes none of them leaves such a traceback without its end: recorded as cut short.
 */
export const UNCOMMON_EXCEPTION_ANCHORS: readonly string[] = ['StopIteration', 'StopAsyncIteration', 'GeneratorExit', 'Timeout', 'errors.', 'exceptions.'];

/** What a truncated traceback (no exception line before EOF or a new traceback) is recorded as. */
export const TRUNCATED_EXCEPTION = 'Traceback';
export const TRUNCATED_MESSAGE = 'traceback ends before its exception line';

type State =
  | { kind: 'idle' }
  | { kind: 'traceback'; start: number; noise: number; previous: FailureRecord | null }
  | { kind: 'after'; record: FailureRecord; pydantic: boolean; chained: boolean };

/**
 * Feed `line()` every line of one stream (one process) in order, then call `finish()`.
 * `line()` returns true when the line belonged to a crash (so callers need not count it as
 * unrecognized). `level` is the log level of the line when known: bare error phrases on
 * DEBUG/INFO/WARNING lines are not crashes.
 */
export class TracebackTracker {
  readonly #file: RelPath;
  readonly #out: FailureRecord[] = [];
  #state: State = { kind: 'idle' };

  constructor(file: RelPath) {
    this.#file = file;
  }

  line(text: string, lineNo: number, level?: string): boolean {
    const state = this.#state;
    if (state.kind === 'traceback') return this.#inTraceback(state, text, lineNo);
    if (state.kind === 'after') {
      if (this.#afterException(state, text)) return true;
      if (state.chained && TRACEBACK.test(text)) {
        this.#state = { kind: 'traceback', start: lineNo, noise: 0, previous: state.record };
        return true;
      }
      this.#emit(state.record);
      this.#state = { kind: 'idle' };
    }
    return this.#idle(text, lineNo, level);
  }

  /** Flushes the traceback in progress; returns every failure, in line order. */
  finish(): FailureRecord[] {
    const state = this.#state;
    if (state.kind === 'after') this.#emit(state.record);
    if (state.kind === 'traceback') this.#emit(this.#truncated(state));
    this.#state = { kind: 'idle' };
    return [...this.#out].sort((a, b) => a.at.line - b.at.line);
  }

  #idle(text: string, lineNo: number, level: string | undefined): boolean {
    if (TRACEBACK.test(text)) {
      this.#state = { kind: 'traceback', start: lineNo, noise: 0, previous: null };
      return true;
    }
    if (level === 'DEBUG' || level === 'INFO' || level === 'WARNING' || level === 'WARN') return false;
    const c0 = text.charCodeAt(0);
    if (c0 === 32 || c0 === 9 || text.length === 0) return false;
    const exc = EXCEPTION_LINE.exec(text);
    if (exc?.[2] !== undefined && BARE_TYPE.test(exc[1] ?? '')) {
      this.#toAfter(exc[1] ?? '', exc[2], lineNo);
      return true;
    }
    // the literal first: the expression tries every word of every line
    const dead = text.includes('EngineDeadError') ? ENGINE_DEAD.exec(text) : null;
    if (dead) {
      this.#emit(this.#record(dead[1] ?? 'EngineDeadError', dead[2] ?? '', lineNo));
      return true;
    }
    if (CUDA_OOM.test(text)) {
      this.#emit(this.#record('OutOfMemoryError', text.trim(), lineNo));
      return true;
    }
    return false;
  }

  #inTraceback(state: Extract<State, { kind: 'traceback' }>, text: string, lineNo: number): boolean {
    const c0 = text.charCodeAt(0);
    if (text.trim() === '' || c0 === 32 || c0 === 9) return true; // frames, code, carets, `...<5 lines>...`
    if (TRACEBACK.test(text)) {
      this.#emit(this.#truncated(state));
      this.#state = { kind: 'traceback', start: lineNo, noise: 0, previous: null };
      return true;
    }
    const exc = EXCEPTION_LINE.exec(text);
    if (exc) {
      this.#toAfter(exc[1] ?? '', exc[2] ?? '', lineNo);
      return true;
    }
    if (++state.noise > MAX_NOISE) {
      this.#emit(this.#truncated(state));
      this.#state = { kind: 'idle' };
    }
    return false;
  }

  /** True when the line still belongs to the exception just seen (message continuation, chain). */
  #afterException(state: Extract<State, { kind: 'after' }>, text: string): boolean {
    const c0 = text.charCodeAt(0);
    if (c0 === 32 || c0 === 9) {
      const t = text.trim();
      if (state.pydantic && t !== '' && !t.startsWith('For further information')) {
        const detail = t.replace(PYDANTIC_DETAIL, '');
        const joined = `${state.record.message}: ${detail}`;
        state.record = { ...state.record, message: clip(joined) };
        state.pydantic = false; // keep the first error's text only
      }
      return true;
    }
    if (text.trim() === '') return true;
    if (CHAIN.test(text)) {
      state.chained = true;
      return true;
    }
    if (state.pydantic && PYDANTIC_LOC.test(text)) return true;
    return false;
  }

  #toAfter(exception: string, message: string, lineNo: number): void {
    const record = this.#record(exception, message, lineNo);
    this.#state = { kind: 'after', record, pydantic: /ValidationError$/.test(exception), chained: false };
  }

  /** A chained traceback cut short falls back to the exception it was handling. */
  #truncated(state: Extract<State, { kind: 'traceback' }>): FailureRecord {
    return state.previous ?? this.#record(TRUNCATED_EXCEPTION, TRUNCATED_MESSAGE, state.start);
  }

  #emit(record: FailureRecord): void {
    this.#out.push(record);
  }

  #record(exception: string, message: string, line: number): FailureRecord {
    return { kind: 'failure', at: { file: this.#file, line, column: 1 }, exception, message: clip(message.trim()) };
  }
}

function clip(s: string): string {
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE - 3)}...` : s;
}

/**
 * Merges the failures of several trackers (one per process of a log): sorted by line, and the
 * same exception with the same message kept once (a crash is often printed by the logger and
 * again by the dying process).
 */
export function mergeFailures(lists: readonly (readonly FailureRecord[])[]): FailureRecord[] {
  const seen = new Set<string>();
  const out: FailureRecord[] = [];
  for (const r of lists.flat().sort((a, b) => a.at.line - b.at.line)) {
    const key = `${r.exception}\0${r.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

/** Reports each failure as `log/crash` (error), or `log/traceback-truncated` (warning). */
export function reportFailures(failures: readonly FailureRecord[], sink: DiagnosticSink): void {
  for (const f of failures) {
    if (f.exception === TRUNCATED_EXCEPTION && f.message === TRUNCATED_MESSAGE) sink.report('log/traceback-truncated', f.at);
    else sink.report('log/crash', f.at, f.exception, f.message);
  }
}
