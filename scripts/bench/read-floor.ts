/**
 * The reference "Node floor" of `npm run bench`: the least a Node program does to read every line
 * of a folder's files on every core (list the files, read each in 64 KiB chunks, find its
 * newlines), parsing nothing. benchlens cannot be faster than this on the same machine; its
 * distance to grep shows what the platform costs before any parsing.
 *
 * With `--json` it also hands every `.json` file to JSON.parse, as a whole: the least that reading
 * those files' values costs on this platform (the "JSON floor"), since no grammar can read a number
 * it has not parsed.
 *
 * node dist/scripts/bench/read-floor.js <folder> [--json]   → prints the number of lines
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const CHUNK = 64 * 1024;

function listFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function countLines(files: readonly string[], parseJson: boolean): number {
  const buf = Buffer.allocUnsafe(CHUNK);
  let lines = 0;
  for (const f of files) {
    if (parseJson && f.endsWith('.json')) {
      const text = readFileSync(f, 'utf8');
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
      try {
        JSON.parse(text);
      } catch {
        // not one JSON document: only its lines count
      }
      continue;
    }
    const fd = openSync(f, 'r');
    try {
      for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
        const text = buf.toString('latin1', 0, n);
        for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
      }
    } finally {
      closeSync(fd);
    }
  }
  return lines;
}

if (isMainThread) {
  const parseJson = process.argv.includes('--json');
  const files = listFiles(path.resolve(process.argv[2] ?? '.'));
  const threads = Math.min(4, availableParallelism());
  const share = (k: number): string[] => files.filter((_, i) => i % threads === k);
  const others = Array.from({ length: threads - 1 }, (_, k) =>
    new Promise<number>((resolve, reject) => {
      const w = new Worker(new URL(import.meta.url), { workerData: { files: share(k + 1), parseJson } });
      w.once('message', (n: number) => resolve(n));
      w.once('error', reject);
    }),
  );
  const own = countLines(share(0), parseJson);
  const total = own + (await Promise.all(others)).reduce((a, b) => a + b, 0);
  console.log(total);
} else {
  const { files, parseJson } = workerData as { files: string[]; parseJson: boolean };
  parentPort?.postMessage(countLines(files, parseJson));
}
