import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a text or binary file, creating its folder. The one place outputs reach the disk. */
export function writeOutput(file: string, content: string | Uint8Array): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, content);
}
