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

/** The part of the WebAssembly API used here (Node's type declarations for this release lack it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}
interface KernelExports {
  scan(from: number, n: number): number;
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly lines: { readonly value: number };
  readonly rest: { readonly value: number };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

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

// ---- the module, byte by byte (https://webassembly.github.io/spec/core/binary/) ----

const I32 = 0x7f;
const V128 = 0x7b;
const OP = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, void: 0x40,
  localGet: 0x20, localSet: 0x21, globalSet: 0x24, i32Store: 0x36, i64Load: 0x29,
  i32Const: 0x41, i64Const: 0x42, i32Eqz: 0x45, i32GtU: 0x4b, i32LeU: 0x4d, i32GeU: 0x4f, i64Eq: 0x51,
  i32Ctz: 0x68, i32Add: 0x6a, i32Sub: 0x6b, i32DivU: 0x6e, i32And: 0x71, i32Or: 0x72, i32ShrU: 0x76, i64And: 0x83,
  simd: 0xfd, v128Load: 0x00, v128Const: 0x0c, i8x16Eq: 0x23, v128And: 0x4e, v128Or: 0x50, v128AnyTrue: 0x53, i8x16Bitmask: 0x64,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  let n = value;
  for (;;) {
    const b = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (b & 0x40) === 0) || (n === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const vec = (items: readonly (readonly number[])[]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: readonly number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => vec([...Buffer.from(s)].map((b) => [b]));

/** Local variable slots of `scan`: its two parameters, then its locals. */
const L = { from: 0, n: 1, i: 2, lineStart: 3, skipped: 4, lines: 5, out: 6, newlines: 7, bits: 8, bit: 9, p: 10, block: 11 } as const;

function moduleBytes(literals: readonly Uint8Array[]): Uint8Array {
  const c: number[] = [];
  const get = (slot: number) => c.push(OP.localGet, slot);
  const set = (slot: number) => c.push(OP.localSet, slot);
  const i32 = (v: number) => c.push(OP.i32Const, ...sleb(BigInt(v)));
  const i64 = (v: bigint) => c.push(OP.i64Const, ...sleb(BigInt.asIntN(64, v)));
  const simd = (op: number, ...immediates: number[]) => c.push(OP.simd, ...uleb(op), ...immediates);
  const splat = (byte: number) => simd(OP.v128Const, ...new Array<number>(16).fill(byte));
  const add = (slot: number, v: number) => {
    get(slot);
    i32(v);
    c.push(OP.i32Add);
    set(slot);
  };

  /** While the current line is dropped: 64 bytes at a time, as long as they hold no newline. */
  const passDroppedBytes = (): void => {
    c.push(OP.block, OP.void, OP.loop, OP.void);
    get(L.skipped);
    c.push(OP.i32Eqz, OP.brIf, 1);
    get(L.i);
    i32(64);
    c.push(OP.i32Add);
    get(L.n);
    c.push(OP.i32GtU, OP.brIf, 1);
    for (const offset of [0, 16, 32, 48]) {
      get(L.i);
      simd(OP.v128Load, 0, offset);
      splat(10);
      simd(OP.i8x16Eq);
      if (offset > 0) simd(OP.v128Or);
    }
    simd(OP.v128AnyTrue);
    c.push(OP.brIf, 1);
    add(L.i, 64);
    c.push(OP.br, 0, OP.end, OP.end);
  };
  /** A newline at p ends the line: record it unless dropped, and start the next one. */
  const endLine = (): void => {
    get(L.skipped);
    c.push(OP.i32Eqz, OP.if, OP.void);
    for (const [slot, offset] of [[L.lineStart, 0], [L.p, 4], [L.lines, 8]] as const) {
      get(L.out);
      get(slot);
      c.push(OP.i32Store, 2, offset);
    }
    add(L.out, 12);
    c.push(OP.end);
    add(L.lines, 1);
    get(L.p);
    i32(1);
    c.push(OP.i32Add);
    set(L.lineStart);
    i32(0);
    set(L.skipped);
  };
  /** Drops the line if `literal` starts at p: within the chunk (a literal holds no newline, so within the line), equal 8 bytes at a time. */
  const checkLiteral = (literal: Uint8Array): void => {
    get(L.p);
    i32(literal.length);
    c.push(OP.i32Add);
    get(L.n);
    c.push(OP.i32LeU, OP.if, OP.void);
    for (let at = 0; at < literal.length; at += 8) {
      let value = 0n;
      let mask = 0n;
      for (let k = 0; k < 8 && at + k < literal.length; k++) {
        value |= BigInt(literal[at + k] as number) << BigInt(8 * k);
        mask |= 0xffn << BigInt(8 * k);
      }
      get(L.p);
      c.push(OP.i64Load, 0, ...uleb(at));
      if (mask !== 0xffffffffffffffffn) {
        i64(mask);
        c.push(OP.i64And);
      }
      i64(value);
      c.push(OP.i64Eq);
      if (at > 0) c.push(OP.i32And);
    }
    c.push(OP.if, OP.void);
    i32(1);
    set(L.skipped);
    c.push(OP.end, OP.end);
  };

  get(L.from);
  set(L.i);
  get(L.from);
  set(L.lineStart);
  i32(OUT);
  set(L.out);
  c.push(OP.block, OP.void, OP.loop, OP.void); // for each 16-byte block
  passDroppedBytes();
  get(L.i);
  get(L.n);
  c.push(OP.i32GeU, OP.brIf, 1);
  get(L.i);
  simd(OP.v128Load, 0, 0);
  set(L.block);
  get(L.block);
  splat(10);
  simd(OP.i8x16Eq);
  simd(OP.i8x16Bitmask);
  set(L.newlines);
  // inside a dropped line, a block without a newline holds nothing of interest
  get(L.skipped);
  get(L.newlines);
  c.push(OP.i32Eqz, OP.i32And, OP.if, OP.void);
  add(L.i, 16);
  c.push(OP.br, 1, OP.end);
  // bits: newlines and the places where a literal's first two bytes are, visited in order
  get(L.newlines);
  headsOf(literals).forEach((head, k) => {
    get(L.block);
    splat(head[0] as number);
    simd(OP.i8x16Eq);
    if (head.length > 1) {
      get(L.i);
      simd(OP.v128Load, 0, 1);
      splat(head[1] as number);
      simd(OP.i8x16Eq);
      simd(OP.v128And);
    }
    if (k > 0) simd(OP.v128Or);
  });
  simd(OP.i8x16Bitmask);
  c.push(OP.i32Or);
  set(L.bits);
  c.push(OP.block, OP.void, OP.loop, OP.void); // for each set bit, lowest first
  get(L.bits);
  c.push(OP.i32Eqz, OP.brIf, 1);
  get(L.bits);
  c.push(OP.i32Ctz);
  set(L.bit);
  get(L.bits);
  get(L.bits);
  i32(1);
  c.push(OP.i32Sub, OP.i32And);
  set(L.bits);
  get(L.i);
  get(L.bit);
  c.push(OP.i32Add);
  set(L.p);
  get(L.newlines);
  get(L.bit);
  c.push(OP.i32ShrU);
  i32(1);
  c.push(OP.i32And, OP.if, OP.void);
  endLine();
  c.push(OP.else); // a literal may start here, unless the line is dropped already
  get(L.skipped);
  c.push(OP.i32Eqz, OP.if, OP.void);
  for (const literal of literals) checkLiteral(literal);
  c.push(OP.end, OP.end);
  c.push(OP.br, 0, OP.end, OP.end); // next bit
  add(L.i, 16);
  c.push(OP.br, 0, OP.end, OP.end); // next block
  get(L.lines);
  c.push(OP.globalSet, 0);
  get(L.lineStart);
  c.push(OP.globalSet, 1);
  get(L.out);
  i32(OUT);
  c.push(OP.i32Sub);
  i32(12);
  c.push(OP.i32DivU, OP.end);

  const body = [...vec([[...uleb(L.block - 2), I32], [1, V128]]), ...c];
  const mutableI32 = [I32, 1, OP.i32Const, 0, OP.end];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, 2, I32, I32, 1, I32]])), // type: (i32, i32) → i32
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(5, vec([[0x00, ...uleb(PAGES)]])), // memory: a minimum, no maximum
    ...section(6, vec([mutableI32, mutableI32])), // globals: lines, rest
    ...section(7, vec([[...name('scan'), 0x00, 0], [...name('memory'), 0x02, 0], [...name('lines'), 0x03, 0], [...name('rest'), 0x03, 1]])),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}
