import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Writes a text or binary file, creating its folder. The one place outputs reach the disk. */
export function writeOutput(file: string, content: string | Uint8Array): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, content);
}

/** Writes text piece by piece (to a file, or to stdout when `file` is undefined), never holding it whole. */
export function writeOutputChunks(file: string | undefined, chunks: Iterable<string>): void {
  if (file === undefined) {
    for (const c of chunks) process.stdout.write(c);
    return;
  }
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const fd = openSync(file, 'w');
  try {
    for (const c of chunks) {
      const bytes = Buffer.from(c);
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    }
  } finally {
    closeSync(fd);
  }
}
