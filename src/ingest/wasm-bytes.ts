/**
 * Writing small WebAssembly modules byte by byte (https://webassembly.github.io/spec/core/binary/):
 * the scan kernels (scan-kernel.ts, skim-kernel.ts) are a few dozen instructions each, so no
 * toolchain is needed. Only the opcodes they use are named.
 */

export const I32 = 0x7f;
export const V128 = 0x7b;

export const OP = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, return: 0x0f, void: 0x40,
  localGet: 0x20, localSet: 0x21, localTee: 0x22, globalGet: 0x23, globalSet: 0x24, i32Store: 0x36, i64Load: 0x29,
  i32Const: 0x41, i64Const: 0x42, i32Eqz: 0x45, i32LtU: 0x49, i32GtU: 0x4b, i32LeU: 0x4d, i32GeU: 0x4f, i64Eq: 0x51,
  i32Ctz: 0x68, i32Popcnt: 0x69, i32Add: 0x6a, i32Sub: 0x6b, i32DivU: 0x6e, i32And: 0x71, i32Or: 0x72, i32Shl: 0x74,
  i32ShrU: 0x76, i64And: 0x83,
  simd: 0xfd, v128Load: 0x00, v128Const: 0x0c, i8x16Eq: 0x23, v128And: 0x4e, v128Or: 0x50, v128AnyTrue: 0x53, i8x16Bitmask: 0x64,
} as const;

/** The part of the WebAssembly API the kernels use (Node's type declarations for this release lack it). */
export interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

export const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(value: bigint): number[] {
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

export const vec = (items: readonly (readonly number[])[]): number[] => [...uleb(items.length), ...items.flat()];
export const section = (id: number, body: readonly number[]): number[] => [id, ...uleb(body.length), ...body];
export const name = (s: string): number[] => vec([...Buffer.from(s)].map((b) => [b]));

/** A mutable i32 global starting at 0. */
export const MUTABLE_I32 = [I32, 1, OP.i32Const, 0, OP.end];

/** The module's magic number and version. */
export const PREAMBLE = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** A function body's instructions, with the shorthands both kernels use. */
export class Code {
  readonly bytes: number[] = [];

  push(...ops: number[]): void {
    this.bytes.push(...ops);
  }

  get(slot: number): void {
    this.bytes.push(OP.localGet, slot);
  }

  set(slot: number): void {
    this.bytes.push(OP.localSet, slot);
  }

  i32(v: number): void {
    this.bytes.push(OP.i32Const, ...sleb(BigInt(v)));
  }

  i64(v: bigint): void {
    this.bytes.push(OP.i64Const, ...sleb(BigInt.asIntN(64, v)));
  }

  simd(op: number, ...immediates: number[]): void {
    this.bytes.push(OP.simd, ...uleb(op), ...immediates);
  }

  /** A v128 constant of 16 equal bytes. */
  splat(byte: number): void {
    this.simd(OP.v128Const, ...new Array<number>(16).fill(byte));
  }

  /** slot += v */
  add(slot: number, v: number): void {
    this.get(slot);
    this.i32(v);
    this.bytes.push(OP.i32Add);
    this.set(slot);
  }
}
