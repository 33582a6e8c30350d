import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { mergeFailures, reportFailures, TracebackTracker, TRUNCATED_EXCEPTION } from '../../src/parse/traceback.js';

const FILE = asRelPath('logs/serve.log');

function track(lines: readonly string[], level?: string): { failures: ReturnType<TracebackTracker['finish']>; consumed: boolean[] } {
  const t = new TracebackTracker(FILE);
  const consumed = lines.map((l, i) => t.line(l, i + 1, level));
  return { failures: t.finish(), consumed };
}

const brief = (lines: readonly string[]) => track(lines).failures.map((f) => [f.at.line, f.exception, f.message]);

describe('TracebackTracker', () => {
  it('reads a 3.11+ traceback with caret lines and its final exception', () => {
    const { failures, consumed } = track([
      'Loading weights',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/site-packages/engine/core.py", line 12, in run',
      '    outputs = step()',
      '              ^^^^^^',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.',
      'Next log line',
    ]);
    expect(failures).toEqual([
      { kind: 'failure', at: { file: FILE, line: 6, column: 1 }, exception: 'torch.OutOfMemoryError', message: 'CUDA out of memory. Tried to allocate 20.00 MiB.' },
    ]);
    expect(consumed).toEqual([false, true, true, true, true, true, false]);
  });

  it('reads 3.13 tilde carets and elided lines', () => {
    expect(
      brief([
        'Traceback (most recent call last):',
        '  File "/opt/x/contextlib.py", line 148, in __exit__',
        '    next(self.gen)',
        '    ~~~~^^^^^^^^^^',
        '    wait_for(',
        '    ...<5 lines>...',
        '    )',
        '    ^',
        'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      ]),
    ).toEqual([[9, 'RuntimeError', 'Engine core initialization failed. See root cause above. Failed core proc(s): {}']]);
  });

  it('keeps the last exception of a chain', () => {
    expect(
      brief([
        'Traceback (most recent call last):',
        '  File "a.py", line 1, in f',
        'KeyError: \'model\'',
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "b.py", line 2, in g',
        'ValueError: no model configured',
        'INFO after',
      ]),
    ).toEqual([[9, 'ValueError', 'no model configured']]);
  });

  it('falls back to the handled exception when the chained traceback is cut short', () => {
    expect(
      brief([
        'Traceback (most recent call last):',
        '  File "a.py", line 1, in f',
        'KeyError: \'model\'',
        'The above exception was the direct cause of the following exception:',
        'Traceback (most recent call last):',
        '  File "b.py", line 2, in g',
      ]),
    ).toEqual([[3, 'KeyError', "'model'"]]);
  });

  it('joins the first pydantic error detail to the ValidationError message', () => {
    expect(
      brief([
        'pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig',
        '  Value error, Invalid repository id [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]',
        '    For further information visit https://errors.pydantic.dev/2.12/v/value_error',
        'next',
      ]),
    ).toEqual([[1, 'pydantic_core._pydantic_core.ValidationError', '1 validation error for ModelConfig: Value error, Invalid repository id']]);
  });

  it('accepts the pydantic location line before the detail', () => {
    expect(
      brief([
        'Traceback (most recent call last):',
        '  File "x.py", line 3, in <module>',
        'pydantic_core._pydantic_core.ValidationError: 1 validation error for Args',
        'max_num_seqs',
        '  Input should be a valid integer [type=int_parsing, input_value=\'a\', input_type=str]',
      ]),
    ).toEqual([[3, 'pydantic_core._pydantic_core.ValidationError', '1 validation error for Args: Input should be a valid integer']]);
  });

  it('records a traceback cut short at end of input at its start line', () => {
    const { failures } = track(['x', 'Traceback (most recent call last):', '  File "a.py", line 1, in f', '    raise e']);
    expect(failures.map((f) => [f.at.line, f.exception])).toEqual([[2, TRUNCATED_EXCEPTION]]);
  });

  it('records a traceback interrupted by a new one as cut short', () => {
    expect(
      brief(['Traceback (most recent call last):', '  File "a.py", line 1', 'Traceback (most recent call last):', '  File "b.py", line 2', 'OSError: disk full']).map((r) => r[1]),
    ).toEqual([TRUNCATED_EXCEPTION, 'OSError']);
  });

  it('finds bare error lines without a traceback', () => {
    expect(
      brief([
        'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
        'vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.',
        'Worker failed: CUDA out of memory while capturing graphs',
        'Note: nothing here',
        'Route: /v1/models, Methods: GET',
      ]),
    ).toEqual([
      [1, 'RuntimeError', 'Engine core initialization failed. See root cause above. Failed core proc(s): {}'],
      [2, 'vllm.v1.engine.exceptions.EngineDeadError', 'EngineCore encountered an issue.'],
      [3, 'OutOfMemoryError', 'Worker failed: CUDA out of memory while capturing graphs'],
    ]);
  });

  it('does not treat error phrases on INFO or WARNING lines as crashes', () => {
    expect(track(['ValueError: retrying with a smaller batch', 'CUDA out of memory, retrying'], 'WARNING').failures).toEqual([]);
  });

  it('tolerates a few foreign lines inside a traceback but gives up after many', () => {
    const noisy = ['Traceback (most recent call last):', 'Loading shards 50% done', '  File "a.py", line 1', 'ValueError: bad'];
    expect(brief(noisy)).toEqual([[4, 'ValueError', 'bad']]);
    const lost = ['Traceback (most recent call last):', ...Array.from({ length: 60 }, () => 'plain output line'), 'ValueError: later'];
    expect(brief(lost).map((r) => [r[0], r[1]])).toEqual([[1, TRUNCATED_EXCEPTION], [62, 'ValueError']]);
  });

  it('clips very long messages', () => {
    const [f] = track([`ValueError: ${'x'.repeat(2000)}`]).failures;
    expect(f?.message.length).toBe(500);
  });
});

describe('mergeFailures and reportFailures', () => {
  it('keeps one copy of the same crash printed twice and reports it as an error', () => {
    const a = track(['Traceback (most recent call last):', '  File "a.py", line 1', 'RuntimeError: CUDA driver error: out of memory']).failures;
    const b = track(['', '', '', '', 'RuntimeError: CUDA driver error: out of memory', 'Traceback (most recent call last):']).failures;
    const merged = mergeFailures([b, a]);
    expect(merged.map((f) => [f.at.line, f.exception])).toEqual([
      [3, 'RuntimeError'],
      [6, TRUNCATED_EXCEPTION],
    ]);
    const sink = new DiagnosticCollector();
    reportFailures(merged, sink);
    expect(sink.list().map((d) => `${d.line} ${d.severity} ${d.code} ${d.message}`)).toEqual([
      '3 error log/crash crash: RuntimeError: "CUDA driver error: out of memory"',
      '6 warning log/traceback-truncated python traceback ends before its exception line',
    ]);
  });
});
