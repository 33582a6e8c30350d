import { gzipSync } from 'node:zlib';
import { seededRandom } from '../../src/analyze/bootstrap.js';

/** What a mutation promises about the runs it leaves behind (see checkCase). */
export type MutationKind = 'structural' | 'truncation' | 'bytes';

export interface Mutation {
  readonly name: string;
  readonly kind: MutationKind;
  readonly bytes: Buffer;
  /** A whole line of a server's log written among the input's lines (`tee`): a console's runs keep every value (see checkCase). */
  readonly teed?: true;
  /** The bytes are a gzip file's (the fixture compressed, then mutated): read from a file, as the pipeline reads one. */
  readonly gzip?: boolean;
}

/**
 * A server's log lines, as `tee` or a shared terminal writes them into a client's output: vLLM's
 * stats line, its uvicorn access line, a warning, SGLang's batch line, TensorRT-LLM's C++ logger.
 */
const SERVER_LINES = [
  '(APIServer pid=41) INFO 01-05 10:00:10 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s',
  '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK',
  'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out',
  '[2026-01-05 10:00:10 TP0] Decode batch. #running-req: 64, #token: 20480, token usage: 0.12, cuda graph: True, gen throughput (token/s): 2765.43, #queue-req: 0',
  '[TensorRT-LLM][INFO] Number of tokens per block: 32.',
  '(RayWorkerWrapper pid=263, ip=10.0.16.95) INFO 01-05 10:00:10 model_runner.py:1115] Loading model weights took 7.5100 GB',
  '[rank0]:[W105 10:00:10.124628071 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called',
];

const NOISE_LINES = ['\x1b[31m\x1b[0m', '\r', '\u0000', '\x1b[2K\r 45%|████▌     | 9/20 [00:04<00:05,  2.10it/s]', 'Traceback (most recent call last):', ...SERVER_LINES, ''];

/** A noise line inserted at `at`: one of SERVER_LINES is a teed mutation. */
function inserted(lines: readonly string[], at: number, noise: string): Mutation {
  const m: Mutation = { name: `insert-${JSON.stringify(noise).slice(0, 12)}-at-${at}`, kind: 'structural', bytes: insertLine(lines, at, noise) };
  return SERVER_LINES.includes(noise) ? { ...m, teed: true } : m;
}

/**
 * Deterministic mutations of one fixture: truncation at line boundaries and inside numbers, noise lines inserted
 * between lines (ANSI, `\r`, NUL, tqdm, a server's log lines, a very long line), a splice with another fixture, a log
 * collector's prefix or a Markdown quote marker on every line, byte flips and invalid UTF-8; and the fixture gzip-compressed,
 * then cut or with a byte flipped.
 * `structural` mutations never touch a value's bytes.
 */
export function* mutations(input: Buffer, other: Buffer, seed: number, longLineBytes: number): Generator<Mutation> {
  const rand = seededRandom(seed);
  const text = input.toString('latin1');
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    yield { name: `truncate-at-line-${n}`, kind: 'truncation', bytes: Buffer.from(lines.slice(0, n).join('\n'), 'latin1') };
  }
  // killed while writing a value: cut after a digit that a digit or a point follows
  const insideNumbers: number[] = [];
  for (let i = 1; i < text.length; i++) if (isDigit(text.charCodeAt(i - 1)) && (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === 46)) insideNumbers.push(i);
  for (let k = 0; k < 3 && insideNumbers.length > 0; k++) {
    const at = insideNumbers[Math.floor(rand() * insideNumbers.length)] as number;
    yield { name: `cut-inside-number-at-${at}`, kind: 'truncation', bytes: input.subarray(0, at) };
  }
  for (const noise of NOISE_LINES) {
    const at = Math.floor(rand() * (lines.length + 1));
    yield inserted(lines, at, noise);
  }
  yield { name: 'insert-long-line', kind: 'structural', bytes: insertLine(lines, lines.length, 'x'.repeat(longLineBytes)) };
  yield { name: 'append-other-fixture', kind: 'structural', bytes: Buffer.concat([input, Buffer.from('\n'), other]) };
  yield { name: 'crlf', kind: 'structural', bytes: Buffer.from(text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n'), 'latin1') };
  // `docker compose logs`: a container's name before every line, which no grammar reads
  yield { name: 'compose-prefix', kind: 'structural', bytes: Buffer.from(lines.map((l) => `bench-1  | ${l}`).join('\n'), 'latin1') };
  // quoted in Markdown (a GitHub reply): the markers no grammar reads
  yield { name: 'markdown-quote', kind: 'structural', bytes: Buffer.from(lines.map((l) => `> ${l}`).join('\n'), 'latin1') };
  for (let k = 0; k < 8; k++) {
    const b = Buffer.from(input);
    if (b.length === 0) break;
    const i = Math.floor(rand() * b.length);
    b[i] = (b[i] ?? 0) ^ (1 << Math.floor(rand() * 8));
    yield { name: `flip-byte-${i}`, kind: 'bytes', bytes: b };
  }
  const cut = Math.floor(rand() * input.length);
  yield { name: `invalid-utf8-at-${cut}`, kind: 'bytes', bytes: Buffer.concat([input.subarray(0, cut), Buffer.from([0xc3, 0x28, 0xff]), input.subarray(cut)]) };
  const packed = gzipSync(input);
  const end = Math.floor(rand() * packed.length);
  yield { name: `gzip-cut-at-${end}`, kind: 'truncation', bytes: packed.subarray(0, end), gzip: true };
  const flipped = Buffer.from(packed);
  const j = Math.floor(rand() * flipped.length);
  flipped[j] = (flipped[j] ?? 0) ^ (1 << Math.floor(rand() * 8));
  yield { name: `gzip-flip-byte-${j}`, kind: 'bytes', bytes: flipped, gzip: true };
}

/** A line of text no grammar knows, written where any line may stand. */
const UNKNOWN_LINE = 'benchmark: done';

/**
 * Every noise line (and a line of unknown text) inserted at every place of the input, and the
 * input cut in the middle of every line: the exhaustive sweep `npm run fuzz -- --every-line` runs
 * (a random place per noise line is what the seeded cases try).
 */
export function* everyLineMutations(input: Buffer): Generator<Mutation> {
  const lines = input.toString('latin1').split('\n');
  for (let at = 1; at < lines.length; at++) {
    for (const noise of [...NOISE_LINES, UNKNOWN_LINE]) yield inserted(lines, at, noise);
    const line = lines[at - 1] ?? '';
    yield { name: `cut-inside-line-${at}`, kind: 'truncation', bytes: Buffer.from([...lines.slice(0, at - 1), line.slice(0, Math.floor(line.length / 2))].join('\n'), 'latin1') };
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function insertLine(lines: readonly string[], at: number, line: string): Buffer {
  return Buffer.from([...lines.slice(0, at), line, ...lines.slice(at)].join('\n'), 'latin1');
}
