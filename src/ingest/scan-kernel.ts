import { Code, I32, MUTABLE_I32, name, OP, PREAMBLE, section, uleb, V128, vec, type WasmApi, wasm } from './wasm-bytes.js';

/**
 * A WebAssembly kernel that walks the lines of a chunk and keeps those holding none of a set of
 * skip literals (access and request-log lines are the bulk of big server logs). It reads the chunk
 * where `readSync` put it, in the module's own memory, 16 bytes at a time (SIMD): no string is made
 * of the chunk, nothing is allocated, and the lines it drops cost no JavaScript at all.
 *
 * The module is written here byte by byte (a few dozen instructions; no toolchain needed) and is
 * specialised for one literal set: each literal's first two bytes are two SIMD comparisons, and a
 * place where they occur is checked against the whole literal eight bytes at a time.
 *
 * Memory: the chunk at 0 (CHUNK_BYTES, then zeros up to PAD: they match neither a newline nor a
 * literal's first byte), then the kept lines from OUT: [start, end, index] as 32-bit words, where
 * end is the offset of the line's newline and index counts the newlines before it from `from`.
 */
/**
 * 256 KiB: a quarter of the read calls of 64 KiB (20 logs of 47 MB: median 0.63 s with 64 KiB,
 * 0.565 s with 256 KiB, 0.57 s with 1 MiB, grep 0.35 s); more buys nothing and costs memory.
 */
export const CHUNK_BYTES = 256 * 1024;
const PAD = 64;
const OUT = 2 * CHUNK_BYTES;
/** 3.5 MiB: OUT + 12 bytes × (CHUNK_BYTES lines at most), in 64 KiB pages. */
const PAGES = (OUT + 12 * CHUNK_BYTES) / 65536;
/** Literal bytes are compared 8 at a time from the match: a literal may not run past the padding. */
const MAX_LITERAL_BYTES = PAD;
/** Literals' distinct first two bytes: two comparisons each in every 16-byte block. */
const MAX_HEADS = 8;

interface KernelExports {
  scan(from: number, n: number): number;
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly lines: { readonly value: number };
  readonly rest: { readonly value: number };
}
export interface ScanKernel {
  /** The chunk: read into this (CHUNK_BYTES at most). */
  readonly chunk: Buffer;
  /** Walks chunk[from, n) and returns how many complete lines it kept (their bounds: start/end/index). */
  scan(from: number, n: number): number;
  start(k: number): number;
  end(k: number): number;
  /** Newlines between `from` and kept line k's start. */
  index(k: number): number;
  /** Newlines in chunk[from, n) after the last scan. */
  readonly lines: number;
  /** Where the chunk's unfinished last line starts after the last scan (n when it ends with a newline). */
  readonly rest: number;
}

/** Can these literals be searched by the kernel (else the caller searches them in JavaScript)? */
export function kernelCanSkip(literals: readonly Uint8Array[]): boolean {
  if (wasm === undefined || literals.length === 0) return false;
  if (literals.some((l) => l.length === 0 || l.length > MAX_LITERAL_BYTES || l[0] === 0 || l.includes(10))) return false;
  return headsOf(literals).length <= MAX_HEADS;
}

/** Each literal's first two bytes (its only byte for a one-byte literal), without repeats. */
function headsOf(literals: readonly Uint8Array[]): number[][] {
  const keys = new Set(literals.map((l) => [...l.subarray(0, 2)].join(',')));
  return [...keys].map((k) => k.split(',').map(Number));
}

const instances = new Map<string, ScanKernel | null>();

/**
 * The kernel for a literal set (one per set and thread: streams in a thread run one at a time), or
 * null where this platform cannot run it (WebAssembly SIMD needs SSE4.1 on x86).
 */
export function scanKernel(literals: readonly Uint8Array[]): ScanKernel | null {
  const key = literals.map((l) => Buffer.from(l).toString('hex')).join(',');
  let kernel = instances.get(key);
  if (kernel === undefined) {
    try {
      kernel = instantiate(literals);
    } catch {
      kernel = null;
    }
    instances.set(key, kernel);
  }
  return kernel;
}

function instantiate(literals: readonly Uint8Array[]): ScanKernel {
  const api = wasm as WasmApi;
  const exports = new api.Instance(new api.Module(moduleBytes(literals))).exports as KernelExports;
  const chunk = Buffer.from(exports.memory.buffer, 0, CHUNK_BYTES + PAD);
  const out = new Int32Array(exports.memory.buffer, OUT);
  return {
    chunk: chunk.subarray(0, CHUNK_BYTES),
    scan(from, n) {
      chunk.fill(0, n, n + PAD);
      return exports.scan(from, n);
    },
    start: (k) => out[3 * k] as number,
    end: (k) => out[3 * k + 1] as number,
    index: (k) => out[3 * k + 2] as number,
    get lines() {
      return exports.lines.value;
    },
    get rest() {
      return exports.rest.value;
    },
  };
}

// ---- the module (see wasm-bytes.ts) ----

/** Local variable slots of `scan`: its two parameters, then its locals. */
const L = { from: 0, n: 1, i: 2, lineStart: 3, skipped: 4, lines: 5, out: 6, newlines: 7, bits: 8, bit: 9, p: 10, block: 11 } as const;

function moduleBytes(literals: readonly Uint8Array[]): Uint8Array {
  const c = new Code();

  /** While the current line is dropped: 64 bytes at a time, as long as they hold no newline. */
  const passDroppedBytes = (): void => {
    c.push(OP.block, OP.void, OP.loop, OP.void);
    c.get(L.skipped);
    c.push(OP.i32Eqz, OP.brIf, 1);
    c.get(L.i);
    c.i32(64);
    c.push(OP.i32Add);
    c.get(L.n);
    c.push(OP.i32GtU, OP.brIf, 1);
    for (const offset of [0, 16, 32, 48]) {
      c.get(L.i);
      c.simd(OP.v128Load, 0, offset);
      c.splat(10);
      c.simd(OP.i8x16Eq);
      if (offset > 0) c.simd(OP.v128Or);
    }
    c.simd(OP.v128AnyTrue);
    c.push(OP.brIf, 1);
    c.add(L.i, 64);
    c.push(OP.br, 0, OP.end, OP.end);
  };
  /** A newline at p ends the line: record it unless dropped, and start the next one. */
  const endLine = (): void => {
    c.get(L.skipped);
    c.push(OP.i32Eqz, OP.if, OP.void);
    for (const [slot, offset] of [[L.lineStart, 0], [L.p, 4], [L.lines, 8]] as const) {
      c.get(L.out);
      c.get(slot);
      c.push(OP.i32Store, 2, offset);
    }
    c.add(L.out, 12);
    c.push(OP.end);
    c.add(L.lines, 1);
    c.get(L.p);
    c.i32(1);
    c.push(OP.i32Add);
    c.set(L.lineStart);
    c.i32(0);
    c.set(L.skipped);
  };
  /** Drops the line if `literal` starts at p: within the chunk (a literal holds no newline, so within the line), equal 8 bytes at a time. */
  const checkLiteral = (literal: Uint8Array): void => {
    c.get(L.p);
    c.i32(literal.length);
    c.push(OP.i32Add);
    c.get(L.n);
    c.push(OP.i32LeU, OP.if, OP.void);
    for (let at = 0; at < literal.length; at += 8) {
      let value = 0n;
      let mask = 0n;
      for (let k = 0; k < 8 && at + k < literal.length; k++) {
        value |= BigInt(literal[at + k] as number) << BigInt(8 * k);
        mask |= 0xffn << BigInt(8 * k);
      }
      c.get(L.p);
      c.push(OP.i64Load, 0, ...uleb(at));
      if (mask !== 0xffffffffffffffffn) {
        c.i64(mask);
        c.push(OP.i64And);
      }
      c.i64(value);
      c.push(OP.i64Eq);
      if (at > 0) c.push(OP.i32And);
    }
    c.push(OP.if, OP.void);
    c.i32(1);
    c.set(L.skipped);
    c.push(OP.end, OP.end);
  };

  c.get(L.from);
  c.set(L.i);
  c.get(L.from);
  c.set(L.lineStart);
  c.i32(OUT);
  c.set(L.out);
  c.push(OP.block, OP.void, OP.loop, OP.void); // for each 16-byte block
  passDroppedBytes();
  c.get(L.i);
  c.get(L.n);
  c.push(OP.i32GeU, OP.brIf, 1);
  c.get(L.i);
  c.simd(OP.v128Load, 0, 0);
  c.set(L.block);
  c.get(L.block);
  c.splat(10);
  c.simd(OP.i8x16Eq);
  c.simd(OP.i8x16Bitmask);
  c.set(L.newlines);
  // inside a dropped line, a block without a newline holds nothing of interest
  c.get(L.skipped);
  c.get(L.newlines);
  c.push(OP.i32Eqz, OP.i32And, OP.if, OP.void);
  c.add(L.i, 16);
  c.push(OP.br, 1, OP.end);
  // bits: newlines and the places where a literal's first two bytes are, visited in order
  c.get(L.newlines);
  headsOf(literals).forEach((head, k) => {
    c.get(L.block);
    c.splat(head[0] as number);
    c.simd(OP.i8x16Eq);
    if (head.length > 1) {
      c.get(L.i);
      c.simd(OP.v128Load, 0, 1);
      c.splat(head[1] as number);
      c.simd(OP.i8x16Eq);
      c.simd(OP.v128And);
    }
    if (k > 0) c.simd(OP.v128Or);
  });
  c.simd(OP.i8x16Bitmask);
  c.push(OP.i32Or);
  c.set(L.bits);
  c.push(OP.block, OP.void, OP.loop, OP.void); // for each set bit, lowest first
  c.get(L.bits);
  c.push(OP.i32Eqz, OP.brIf, 1);
  c.get(L.bits);
  c.push(OP.i32Ctz);
  c.set(L.bit);
  c.get(L.bits);
  c.get(L.bits);
  c.i32(1);
  c.push(OP.i32Sub, OP.i32And);
  c.set(L.bits);
  c.get(L.i);
  c.get(L.bit);
  c.push(OP.i32Add);
  c.set(L.p);
  c.get(L.newlines);
  c.get(L.bit);
  c.push(OP.i32ShrU);
  c.i32(1);
  c.push(OP.i32And, OP.if, OP.void);
  endLine();
  c.push(OP.else); // a literal may start here, unless the line is dropped already
  c.get(L.skipped);
  c.push(OP.i32Eqz, OP.if, OP.void);
  for (const literal of literals) checkLiteral(literal);
  c.push(OP.end, OP.end);
  c.push(OP.br, 0, OP.end, OP.end); // next bit
  c.add(L.i, 16);
  c.push(OP.br, 0, OP.end, OP.end); // next block
  c.get(L.lines);
  c.push(OP.globalSet, 0);
  c.get(L.lineStart);
  c.push(OP.globalSet, 1);
  c.get(L.out);
  c.i32(OUT);
  c.push(OP.i32Sub);
  c.i32(12);
  c.push(OP.i32DivU, OP.end);

  const body = [...vec([[...uleb(L.block - 2), I32], [1, V128]]), ...c.bytes];
  return new Uint8Array([
    ...PREAMBLE,
    ...section(1, vec([[0x60, 2, I32, I32, 1, I32]])), // type: (i32, i32) → i32
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(5, vec([[0x00, ...uleb(PAGES)]])), // memory: a minimum, no maximum
    ...section(6, vec([MUTABLE_I32, MUTABLE_I32])), // globals: lines, rest
    ...section(7, vec([[...name('scan'), 0x00, 0], [...name('memory'), 0x02, 0], [...name('lines'), 0x03, 0], [...name('rest'), 0x03, 1]])),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}
