import { describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { excerptsOf, type Excerpts } from '../../src/ingest/excerpts.js';

const source = (lines: string[]) => ({ path: asRelPath('summary.txt'), lines });

/** Each excerpt as its file, its lines and the line numbers they have in the summary. */
function parts(found: Excerpts | null) {
  return found?.excerpts.map((e) => ({ origin: e.origin, lines: e.source.lines, at: e.source.lines.map((_, i) => e.lineOf(i + 1)) }));
}

describe('excerpts of other files gathered in one', () => {
  it("read tail's sections, each to the next header, without the headers and the blank line before them", () => {
    const found = excerptsOf(source(['==> logs/a.log <==', 'Successful requests: 10', '', '==> logs/b.log <==', 'Successful requests: 20']));
    expect(parts(found)).toEqual([
      { origin: 'logs/a.log', lines: ['Successful requests: 10'], at: [2] },
      { origin: 'logs/b.log', lines: ['Successful requests: 20'], at: [5] },
    ]);
    expect(found?.rest.lines).toEqual(['', '', '', '', '']);
    expect(found?.firstLine).toBe(1);
  });

  it('end a tail section where its fenced block ends, the text after it the write-up’s own', () => {
    const found = excerptsOf(source(['# Results', '```', '==> a.log <==', 'x: 1', '```', 'Prose after.']));
    expect(parts(found)).toEqual([{ origin: 'a.log', lines: ['x: 1'], at: [4] }]);
    expect(found?.rest.lines).toEqual(['# Results', '```', '', '', '```', 'Prose after.']);
  });

  it("read grep's groups (a match, its context) without the file name, the line number or the `--` between groups", () => {
    const found = excerptsOf(
      source([
        'run1.log-7-100%|██| 80/80',
        'run1.log:8:==== Serving Benchmark Result ====',
        'run1.log-9-Successful requests:   80',
        '--',
        'run-2.out:====== Offline Throughput Benchmark Result =======',
        'run-2.out-Backend:    engine',
        'run-2.out-12-not a line number: grep without -n keeps it',
      ]),
    );
    expect(parts(found)).toEqual([
      { origin: 'run1.log', lines: ['100%|██| 80/80', '==== Serving Benchmark Result ====', 'Successful requests:   80'], at: [1, 2, 3] },
      { origin: 'run-2.out', lines: ['====== Offline Throughput Benchmark Result =======', 'Backend:    engine', '12-not a line number: grep without -n keeps it'], at: [5, 6, 7] },
    ]);
    expect(found?.rest.lines.every((l) => l === '')).toBe(true);
  });

  it("gather one file's groups into one excerpt, and take an MPI launcher's tag off after grep's prefix", () => {
    const found = excerptsOf(source(['a.out:[1,0]<stdout>:1', 'a.out-[1,0]<stdout>:2', 'a.out-[1,0]<stdout>:3', '--', 'b.out:4', 'b.out-5', 'b.out-6', '--', 'a.out:7', 'a.out-8', 'a.out-9']));
    expect(parts(found)).toEqual([
      { origin: 'a.out', lines: ['1', '2', '3', '7', '8', '9'], at: [1, 2, 3, 9, 10, 11] },
      { origin: 'b.out', lines: ['4', '5', '6'], at: [5, 6, 7] },
    ]);
  });

  it("keep a group's lines after a line written into it (a server's, tee'd into the summary) with its file", () => {
    const found = excerptsOf(source(['a.out:12:first', 'a.out-13-second', 'INFO 07-18 15:32:52 [loggers.py:1] a server line', 'a.out-14-third', 'a.out-15-fourth']));
    expect(parts(found)).toEqual([{ origin: 'a.out', lines: ['first', 'second', 'third', 'fourth'], at: [1, 2, 4, 5] }]);
    expect(found?.rest.lines).toEqual(['', '', 'INFO 07-18 15:32:52 [loggers.py:1] a server line', '', '']);
  });

  it.each([
    ['a log of uvicorn lines', ['INFO:     127.0.0.1:5000 - "POST /v1/completions HTTP/1.1" 200 OK', 'INFO:     127.0.0.1:5000 - "GET /health HTTP/1.1" 200 OK']],
    ['YAML with dotted keys', ['model.name: llama', 'model.name-suffix: 8b']],
    ['matches without context (plain grep over files)', ['a.log:Output token throughput (tok/s): 998.40', 'a.log:Request throughput (req/s): 3.90']],
    ["Python warnings", ['/usr/lib/python3/torch/cuda/__init__.py:129: UserWarning: CUDA initialization', '  warnings.warn(']],
    ['a result block', ['============ Serving Benchmark Result ============', 'Successful requests:                     160']],
    ['a tail header not on a line of its own', ['see ==> a.log <== below']],
    ['JSON', ['{"model_id": "a/b", "date": "20250101-101010"}']],
  ])('are none in %s', (_, lines) => {
    expect(excerptsOf(source(lines))).toBeNull();
  });

  it("are none in a long run of one host's lines (pdsh's `node.cluster: text`), found in one pass (each line walked the whole run again: a 60,000-line file took 50 s)", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `gpu-node-1.cluster: step ${i}`);
    expect(excerptsOf(source(lines))).toBeNull();
  });

  it('keep a redrawn line’s start and the cut last line with the excerpt they belong to', () => {
    const found = excerptsOf({ ...source(['==> a.log <==', 'x', '==> b.log <==', 'y', 'Successful req']), overwritten: new Map([[1, 'x0']]), unterminated: true });
    const [a, b] = found?.excerpts ?? [];
    expect(a?.source.overwritten).toEqual(new Map([[0, 'x0']]));
    expect(a?.source.unterminated).toBeUndefined();
    expect(b?.source.unterminated).toBe(true);
    expect(b?.lineOf(2)).toBe(5);
  });
});
