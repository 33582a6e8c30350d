import { closeSync, existsSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { OutputError } from '../core/errors.js';

/** Writes a text or binary file, creating its folder. The one place outputs reach the disk. */
export function writeOutput(file: string, content: string | Uint8Array): void {
  writing(file, () => {
    makeFolder(path.dirname(path.resolve(file)));
    writeFileSync(file, content);
  });
}

/** Runs `write`, turning what the file system refuses into an OutputError naming the file. */
function writing(file: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') throw e;
    throw new OutputError(`cannot write ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Makes a folder and the missing ones above it, one at a time. Node's `recursive` mkdir never
 * returns under /proc (it makes the parent again each time the child is refused), and a
 * command must fail on a bad output path, not hang.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); !existsSync(d); d = path.dirname(d)) {
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      // made meanwhile (another process writing the same folder)
      if ((e as { code?: unknown }).code !== 'EEXIST') throw e;
    }
  }
}

/** Writes text piece by piece (to a file, or to stdout when `file` is undefined), never holding it whole. */
export function writeOutputChunks(file: string | undefined, chunks: Iterable<string>): void {
  if (file === undefined) {
    for (const c of chunks) process.stdout.write(c);
    return;
  }
  writing(file, () => {
    makeFolder(path.dirname(path.resolve(file)));
    const fd = openSync(file, 'w');
    try {
      for (const c of chunks) {
        const bytes = Buffer.from(c);
        for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      }
    } finally {
      closeSync(fd);
    }
  });
}
