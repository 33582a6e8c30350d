import { Code, I32, name, OP, PREAMBLE, section, uleb, V128, vec, type WasmApi, wasm } from './wasm-bytes.js';

/**
 * A WebAssembly kernel for the JSON skim (json-skim.ts): it passes over the bytes of a skimmed
 * value that mean nothing there, 16 at a time (SIMD), and counts the line breaks it passes. A
 * skimmed value is nearly all such bytes (the digits of `itls`, the text of `generated_texts`), and
 * walked byte by byte in JavaScript they were most of the skim's time (280 MB/s on a one-line
 * detailed vLLM result, 170 MB/s pretty-printed).
 *
 * In a value (not in a string) the bytes that stop it are `"`, `[`, `]`, `{`, `}`, `\r`, ESC and
 * NUL; line breaks are passed and counted. In a string: `"`, `\`, a line break, `\r`, ESC and NUL.
 * It reads the chunk where the read put it, in the module's own memory: the skim reads into
 * `chunk`.
 */

/** What the skim reads at a time: 1 MiB. */
export const SKIM_CHUNK_BYTES = 1 << 20;
/** A block read at the chunk's end runs up to 15 bytes past it (masked off). */
const PAD = 16;
/** Where a pass leaves how many line breaks it passed (a 32-bit word after the chunk). */
const NEWLINES_AT = SKIM_CHUNK_BYTES + PAD;
const PAGES = Math.ceil((NEWLINES_AT + 4) / 65536);

export interface SkimKernel {
  /** The chunk, SKIM_CHUNK_BYTES in the module's memory: read into this. */
  readonly chunk: Buffer;
  /** The index of the first byte of chunk[from, to) that stops a walk (`to` when none does). */
  pass(from: number, to: number, inString: boolean): number;
  /** The line breaks the last pass passed. */
  newlines(): number;
}

interface KernelExports {
  pass(from: number, to: number, inString: number): number;
  readonly memory: { readonly buffer: ArrayBuffer };
}

let instance: SkimKernel | null | undefined;

/** This thread's kernel (the skim is not re-entered), or null where WebAssembly SIMD is not available. */
export function skimKernel(): SkimKernel | null {
  if (instance === undefined) {
    try {
      instance = wasm === undefined ? null : instantiate(wasm);
    } catch {
      instance = null;
    }
  }
  return instance;
}

function instantiate(api: WasmApi): SkimKernel {
  const exports = new api.Instance(new api.Module(moduleBytes())).exports as KernelExports;
  const count = new Int32Array(exports.memory.buffer, NEWLINES_AT, 1);
  return {
    chunk: Buffer.from(exports.memory.buffer, 0, SKIM_CHUNK_BYTES),
    pass: (from, to, inString) => exports.pass(from, to, inString ? 1 : 0),
    newlines: () => count[0] as number,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const ESCAPE = 0x1b;
/** `[` and `{`, `]` and `}` differ by 0x20 only: or-ed with it, each pair is one comparison. */
const CASE_BIT = 0x20;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Local variable slots of `pass`: its three parameters, then its locals (i32s, then v128s). */
const L = { from: 0, to: 1, inString: 2, i: 3, stops: 4, newlines: 5, count: 6, bit: 7, block: 8 } as const;

function moduleBytes(): Uint8Array {
  const c = new Code();
  /** `get(slot) & mask` into slot. */
  const mask = (slot: number, by: number): void => {
    c.get(slot);
    c.get(by);
    c.push(OP.i32And);
    c.set(slot);
  };
  /** Pushes the bits below n, (1 << n) - 1, n pushed by `n`. */
  const bitsBelow = (n: () => void): void => {
    c.i32(1);
    n();
    c.push(OP.i32Shl);
    c.i32(1);
    c.push(OP.i32Sub);
  };
  /** count += the set bits of the value on the stack. */
  const countBits = (): void => {
    c.push(OP.i32Popcnt);
    c.get(L.count);
    c.push(OP.i32Add);
    c.set(L.count);
  };
  /** The block's bytes equal to `byte`, as a v128 of 0xff/0x00 lanes. */
  const equal = (byte: number): void => {
    c.get(L.block);
    c.splat(byte);
    c.simd(OP.i8x16Eq);
  };

  c.i32(0);
  c.set(L.count);
  c.get(L.from);
  c.set(L.i);
  c.push(OP.block, OP.void, OP.loop, OP.void); // for each 16-byte block
  // past the end: stop at it
  c.get(L.i);
  c.get(L.to);
  c.push(OP.i32GeU, OP.if, OP.void);
  c.get(L.to);
  c.set(L.i);
  c.push(OP.br, 2, OP.end);
  c.get(L.i);
  c.simd(OP.v128Load, 0, 0);
  c.set(L.block);
  // the bytes that stop a walk anywhere…
  equal(QUOTE);
  equal(RETURN);
  c.simd(OP.v128Or);
  equal(ESCAPE);
  c.simd(OP.v128Or);
  equal(0);
  c.simd(OP.v128Or);
  // …and in a string, or in a value
  c.get(L.inString);
  c.push(OP.if, V128);
  equal(BACKSLASH);
  equal(NEWLINE);
  c.simd(OP.v128Or);
  c.push(OP.else);
  for (const brace of [OPEN_BRACE, CLOSE_BRACE]) {
    c.get(L.block);
    c.splat(CASE_BIT);
    c.simd(OP.v128Or);
    c.splat(brace);
    c.simd(OP.i8x16Eq);
  }
  c.simd(OP.v128Or);
  c.push(OP.end);
  c.simd(OP.v128Or);
  c.simd(OP.i8x16Bitmask);
  c.set(L.stops);
  equal(NEWLINE);
  c.simd(OP.i8x16Bitmask);
  c.set(L.newlines);
  // a block running past the end: only its first to - i bytes count
  c.get(L.to);
  c.get(L.i);
  c.push(OP.i32Sub);
  c.i32(16);
  c.push(OP.i32LtU, OP.if, OP.void);
  bitsBelow(() => {
    c.get(L.to);
    c.get(L.i);
    c.push(OP.i32Sub);
  });
  c.set(L.bit);
  mask(L.stops, L.bit);
  mask(L.newlines, L.bit);
  c.push(OP.end);
  // a byte that stops the walk: count the line breaks before it, and stop there
  c.get(L.stops);
  c.push(OP.if, OP.void);
  c.get(L.stops);
  c.push(OP.i32Ctz);
  c.set(L.bit);
  c.get(L.newlines);
  bitsBelow(() => c.get(L.bit));
  c.push(OP.i32And);
  countBits();
  c.get(L.i);
  c.get(L.bit);
  c.push(OP.i32Add);
  c.set(L.i);
  c.push(OP.br, 2, OP.end);
  c.get(L.newlines);
  countBits();
  c.add(L.i, 16);
  c.push(OP.br, 0, OP.end, OP.end); // next block
  c.i32(NEWLINES_AT);
  c.get(L.count);
  c.push(OP.i32Store, 2, 0);
  c.get(L.i);
  c.push(OP.end);

  const body = [...vec([[...uleb(L.block - 3), I32], [1, V128]]), ...c.bytes];
  return new Uint8Array([
    ...PREAMBLE,
    ...section(1, vec([[0x60, 3, I32, I32, I32, 1, I32]])), // type: (i32, i32, i32) → i32
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(5, vec([[0x00, ...uleb(PAGES)]])), // memory: a minimum, no maximum
    ...section(7, vec([[...name('pass'), 0x00, 0], [...name('memory'), 0x02, 0]])),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}
