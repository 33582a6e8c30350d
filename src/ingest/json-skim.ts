import { closeSync, openSync } from 'node:fs';
import { type ByteInput, plainInput } from './byte-input.js';
import { SKIM_CHUNK_BYTES, type SkimKernel, skimKernel } from './skim-kernel.js';

/**
 * Reading a large JSON file without the values its grammars never read.
 *
 * `--save-detailed` results hold every request's latencies (`ttfts`, `itls`: millions of numbers,
 * hundreds of MB on one line); GuideLLM's `benchmarks.json` every request. Read whole, a 210 MB
 * result took 1.5 GB and 9 s, and one above 512 MB (V8's longest string) was skipped, its run lost.
 * The skim reads the file in chunks and copies its bytes except such values, each written as
 * `null` followed by the line breaks it held, so every line keeps its number. What is left is a
 * few kilobytes, which the grammars read like a small file (same records; see docs/architecture.md).
 *
 * The walk is byte-wise: every byte JSON gives a meaning to is ASCII, and no byte of a multi-byte
 * UTF-8 character is. A path names a value by its keys from a top-level document, `[]` standing for
 * every element of an array: `ttfts`, `benchmarks[].requests`. Only arrays and objects are left out.
 */

/** Value paths as a tree: a node's children by key (`[]` for an array's elements). */
export class SkimPaths {
  readonly #children = new Map<string, SkimPaths>();
  #leaf = false;

  /** The tree of `paths`; null when there are none. */
  static of(paths: readonly string[]): SkimPaths | null {
    if (paths.length === 0) return null;
    const root = new SkimPaths();
    for (const path of paths) {
      let node: SkimPaths = root;
      for (const segment of segmentsOf(path)) {
        let next = node.#children.get(segment);
        if (!next) node.#children.set(segment, (next = new SkimPaths()));
        node = next;
      }
      node.#leaf = true;
    }
    return root;
  }

  child(segment: string): SkimPaths | null {
    return this.#children.get(segment) ?? null;
  }

  get leaf(): boolean {
    return this.#leaf;
  }
}

/** `benchmarks[].requests` → `benchmarks`, `[]`, `requests`. */
function segmentsOf(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('.')) {
    let name = part;
    let elements = 0;
    while (name.endsWith('[]')) {
      name = name.slice(0, -2);
      elements++;
    }
    if (name !== '') out.push(name);
    for (let i = 0; i < elements; i++) out.push(ELEMENT);
  }
  return out;
}

const ELEMENT = '[]';

/** The paths every grammar lists (null when one lists none): a value is left out only if no claimant reads it. */
export function commonSkimPaths(lists: readonly (readonly string[] | undefined)[]): string[] | null {
  if (lists.length === 0 || lists.some((l) => !l || l.length === 0)) return null;
  const [first, ...rest] = lists as readonly (readonly string[])[];
  const common = (first ?? []).filter((p) => rest.every((l) => l.includes(p)));
  return common.length > 0 ? common : null;
}

export type SkimResult =
  /** The file's bytes without the skimmed values. */
  | { readonly kind: 'skimmed'; readonly bytes: Buffer }
  /**
   * Read whole instead: a NUL byte (not text: a sparse or damaged file); text a terminal shows
   * differently (an ANSI escape, a `\r` not ending a line), which cleaning changes line by line; a
   * document cut short (a line break inside a string, a `{` opening a line inside an open
   * document: JSON Lines whose writer was stopped), which the JSON reader recovers from line by
   * line where a skim would run on over the next documents.
   */
  | { readonly kind: 'whole' }
  /** What is left is still above `maxKeptBytes`. */
  | { readonly kind: 'too-large' };

/**
 * The file's bytes without the values at `paths`. Reads in chunks; holds one chunk and what is
 * kept. Throws what reading throws (the caller reports it).
 */
export function skimJsonFile(abs: string, paths: SkimPaths, maxKeptBytes: number): SkimResult {
  const fd = openSync(abs, 'r');
  try {
    return skimJsonInput(plainInput(fd), paths, maxKeptBytes);
  } finally {
    closeSync(fd);
  }
}

/** skimJsonFile over any input (a gzip file's text, see GunzipInput). */
export function skimJsonInput(input: ByteInput, paths: SkimPaths, maxKeptBytes: number): SkimResult {
  const skim = new JsonSkim(paths);
  // read where the kernel walks (the skim is not re-entered: one chunk a thread)
  const chunk = skimKernel()?.chunk ?? Buffer.allocUnsafe(SKIM_CHUNK_BYTES);
  for (;;) {
    const n = input.read(chunk, 0, SKIM_CHUNK_BYTES);
    if (n === 0) break;
    if (!skim.push(chunk.subarray(0, n))) return { kind: 'whole' };
    if (skim.keptBytes > maxKeptBytes) return { kind: 'too-large' };
  }
  // a file cut inside a skimmed value keeps what came before it: the JSON reader reports the cut document
  return { kind: 'skimmed', bytes: skim.bytes() };
}

/**
 * The skim over bytes already in memory, in pieces as given (tests). Null: to be read whole.
 * `kernel`: each piece is copied where the WebAssembly kernel walks it, in chunks, as a file is
 * read; else it is walked in JavaScript (both give the same bytes).
 */
export function skimJsonBytes(pieces: readonly Uint8Array[], paths: SkimPaths, kernel = false): Buffer | null {
  const skim = new JsonSkim(paths);
  const chunk = kernel ? skimKernel()?.chunk : undefined;
  for (const p of pieces) {
    if (!chunk) {
      if (!skim.push(p)) return null;
      continue;
    }
    for (let at = 0; at < p.length; at += chunk.length) {
      const part = p.subarray(at, at + chunk.length);
      chunk.set(part);
      if (!skim.push(chunk.subarray(0, part.length))) return null;
    }
  }
  return skim.bytes();
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const ESCAPE = 0x1b;
const NUL = 0x00;
const SPACE = 0x20;
const TAB = 0x09;

/** Where the walk is: between tokens, or in a number or literal. */
const STRUCTURE = 0;
/** In a string; right after its backslash. */
const IN_STRING = 1;
const ESCAPED = 2;
/** After the `:` of a skimmed key, before its value. */
const SKIM_NEXT = 3;
/** In a skimmed value, with its own string states. */
const SKIMMING = 4;
const SKIM_STRING = 5;
const SKIM_ESCAPED = 6;

/**
 * What a byte is to a walk over a skimmed value: plain (1), a line break passed and counted (2, in
 * a value only), or one that stops it (0): a quote, bracket, brace, backslash (in a string), line
 * break (in a string), `\r`, ESC or NUL. The kernel (skim-kernel.ts) walks the same way.
 */
const VALUE_WALK = walkTable('"[]{}\r\x1b\0', true);
const STRING_WALK = walkTable('"\\\n\r\x1b\0', false);

function walkTable(stops: string, countLines: boolean): Uint8Array {
  const table = new Uint8Array(256).fill(1);
  for (const ch of stops) table[ch.charCodeAt(0)] = 0;
  if (countLines) table[NEWLINE] = 2;
  return table;
}

/** Walks a skimmed value from `from`: where it stops (piece.length when nothing stops it), and the line breaks passed. */
interface Walk {
  pass(piece: Uint8Array, from: number, inString: boolean): number;
  readonly newlines: number;
}

/** The walk in JavaScript, byte by byte. */
class ByteWalk implements Walk {
  newlines = 0;

  pass(piece: Uint8Array, from: number, inString: boolean): number {
    const table = inString ? STRING_WALK : VALUE_WALK;
    let lines = 0;
    let i = from;
    for (; i < piece.length; i++) {
      const kind = table[piece[i] as number];
      if (kind === 0) break;
      if (kind === 2) lines++;
    }
    this.newlines = lines;
    return i;
  }
}

/** The kernel's walk over a piece in its chunk (see JsonSkim.push). */
class KernelWalk implements Walk {
  readonly #kernel: SkimKernel;
  /** Where the piece starts in the chunk. */
  base = 0;
  newlines = 0;

  constructor(kernel: SkimKernel) {
    this.#kernel = kernel;
  }

  pass(piece: Uint8Array, from: number, inString: boolean): number {
    const next = this.#kernel.pass(this.base + from, this.base + piece.length, inString) - this.base;
    // a string's walk stops at a line break: it passes none
    this.newlines = inString ? 0 : this.#kernel.newlines();
    return next;
  }
}

/** Keys longer than this are not compared (no listed path has one). */
const MAX_KEY_BYTES = 64;
const NULL = Buffer.from('null');

class JsonSkim {
  readonly #root: SkimPaths;
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #at = STRUCTURE;
  /** Per open container: is it an object, and the paths below it (null: none). */
  readonly #isObject: boolean[] = [];
  readonly #nodes: (SkimPaths | null)[] = [];
  /** In an object: the next string is a key. */
  #expectKey = false;
  /** The key being read (its bytes while short and unescaped), and the last one read. */
  #key: number[] | null = null;
  #lastKey: string | null = null;
  /** How deep the walk is in the skimmed value, and how many line breaks it has passed there. */
  #skimDepth = 0;
  #skimLines = 0;
  /** A `\r` ended the last piece: plain only if the next starts with `\n` (or none follows: cleaning drops a last line's `\r`). */
  #pendingReturn = false;
  /** The last byte was a line break. */
  #lineStart = true;

  readonly #byteWalk = new ByteWalk();
  readonly #kernelWalk: KernelWalk | null;
  readonly #chunk: ArrayBufferLike | null;

  constructor(root: SkimPaths) {
    this.#root = root;
    const kernel = skimKernel();
    this.#kernelWalk = kernel ? new KernelWalk(kernel) : null;
    this.#chunk = kernel?.chunk.buffer ?? null;
  }

  get keptBytes(): number {
    return this.#keptBytes;
  }

  /** False when the file is to be read whole (see SkimResult). */
  push(piece: Uint8Array): boolean {
    if (piece.length === 0) return true;
    if (this.#pendingReturn && piece[0] !== NEWLINE) return false;
    this.#pendingReturn = false;
    // the kernel walks a piece read into its chunk; JavaScript any other
    let walk: Walk = this.#byteWalk;
    if (this.#kernelWalk !== null && piece.buffer === this.#chunk) {
      this.#kernelWalk.base = piece.byteOffset;
      walk = this.#kernelWalk;
    }
    let copyFrom = this.#skimming() ? -1 : 0;
    for (let i = 0; i < piece.length; i++) {
      // the bulk of a skimmed value: bytes that mean nothing there are passed over in a tight loop
      if (this.#at === SKIMMING || this.#at === SKIM_STRING) {
        const next = walk.pass(piece, i, this.#at === SKIM_STRING);
        if (next > i) {
          this.#skimLines += walk.newlines;
          this.#lineStart = piece[next - 1] === NEWLINE;
          i = next;
          if (i === piece.length) break;
        }
      }
      const c = piece[i] as number;
      if (c === ESCAPE || c === NUL) return false;
      if (c === RETURN) {
        if (i + 1 === piece.length) this.#pendingReturn = true;
        else if (piece[i + 1] !== NEWLINE) return false;
      }
      const lineStart = this.#lineStart;
      this.#lineStart = c === NEWLINE;
      switch (this.#at) {
        case IN_STRING:
          if (c === NEWLINE) return false;
          if (c === BACKSLASH) {
            this.#at = ESCAPED;
            this.#key = null;
          } else if (c === QUOTE) this.#endString();
          else if (this.#key !== null) {
            if (this.#key.length < MAX_KEY_BYTES) this.#key.push(c);
            else this.#key = null;
          }
          break;
        case ESCAPED:
          if (c === NEWLINE) return false;
          this.#at = IN_STRING;
          break;
        case SKIM_NEXT:
          if (c === OPEN_BRACE && lineStart) return false;
          if (c === OPEN_BRACE || c === OPEN_BRACKET) {
            this.#keep(piece, copyFrom, i);
            copyFrom = -1;
            this.#at = SKIMMING;
            this.#skimDepth = 1;
            this.#skimLines = 0;
          } else if (c !== SPACE && c !== TAB && c !== NEWLINE && c !== RETURN) {
            // a string, number or literal: kept (only containers are left out)
            this.#at = STRUCTURE;
            if (!this.#structure(c, lineStart)) return false;
          }
          break;
        case SKIMMING:
          if (c === OPEN_BRACE && lineStart) return false;
          if (c === QUOTE) this.#at = SKIM_STRING;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.#skimDepth++;
          else if (c === NEWLINE) this.#skimLines++;
          else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --this.#skimDepth === 0) {
            this.#endSkim();
            this.#at = STRUCTURE;
            copyFrom = i + 1;
          }
          break;
        case SKIM_STRING:
          if (c === NEWLINE) return false;
          if (c === BACKSLASH) this.#at = SKIM_ESCAPED;
          else if (c === QUOTE) this.#at = SKIMMING;
          break;
        case SKIM_ESCAPED:
          if (c === NEWLINE) return false;
          this.#at = SKIM_STRING;
          break;
        default:
          if (!this.#structure(c, lineStart)) return false;
      }
    }
    if (copyFrom >= 0) this.#keep(piece, copyFrom, piece.length);
    return true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#kept, this.#keptBytes);
  }

  #skimming(): boolean {
    return this.#at === SKIMMING || this.#at === SKIM_STRING || this.#at === SKIM_ESCAPED;
  }

  /** False at a `{` opening a line inside an open document (see SkimResult). */
  #structure(c: number, lineStart: boolean): boolean {
    const depth = this.#nodes.length;
    switch (c) {
      case QUOTE:
        this.#at = IN_STRING;
        this.#key = depth > 0 && this.#isObject[depth - 1] === true && this.#expectKey ? [] : null;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (c === OPEN_BRACE && lineStart && depth > 0) return false;
        this.#nodes.push(this.#valueNode());
        this.#isObject.push(c === OPEN_BRACE);
        this.#expectKey = c === OPEN_BRACE;
        this.#lastKey = null;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (depth > 0) {
          this.#nodes.pop();
          this.#isObject.pop();
        }
        this.#expectKey = false;
        this.#lastKey = null;
        break;
      case COMMA:
        this.#expectKey = depth > 0 && this.#isObject[depth - 1] === true;
        this.#lastKey = null;
        break;
      case COLON:
        this.#expectKey = false;
        if (this.#valueNode()?.leaf === true) this.#at = SKIM_NEXT;
        break;
    }
    return true;
  }

  /** The paths below the value that starts here (null: none). */
  #valueNode(): SkimPaths | null {
    const depth = this.#nodes.length;
    if (depth === 0) return this.#root;
    const parent = this.#nodes[depth - 1] ?? null;
    if (parent === null) return null;
    if (this.#isObject[depth - 1] !== true) return parent.child(ELEMENT);
    return this.#lastKey === null ? null : parent.child(this.#lastKey);
  }

  #endString(): void {
    this.#at = STRUCTURE;
    if (this.#key !== null) this.#lastKey = String.fromCharCode(...this.#key);
    this.#key = null;
  }

  #endSkim(): void {
    this.#push(NULL);
    if (this.#skimLines > 0) this.#push(Buffer.alloc(this.#skimLines, NEWLINE));
    this.#lastKey = null;
  }

  #keep(piece: Uint8Array, from: number, to: number): void {
    if (from < 0 || to <= from) return;
    this.#push(Buffer.from(piece.subarray(from, to)));
  }

  #push(bytes: Buffer): void {
    this.#kept.push(bytes);
    this.#keptBytes += bytes.length;
  }
}
