/**
 * npm run fuzz [-- --cases 10000] [--seed 1]
 * npm run fuzz -- --every-line [--cases N] [--only <text>]
 *
 * Mutates every fixture input (truncation at every line, noise lines, long lines, splices, CRLF,
 * byte flips, invalid UTF-8) and checks the fuzz properties on all grammars (scripts/fuzz/check.ts).
 * Cycles through the fixtures with new seeds until the number of cases is reached. Exit 1 on any
 * failure, printing the fixture, mutation and seed so it can be replayed. `--every-line` instead
 * inserts every noise line at every place of every fixture and cuts each inside every line
 * (everyLineMutations: some 348,000 cases, about 35 minutes on one core), all of them unless
 * `--cases` bounds it. `--only` keeps the fixtures whose path holds the text (replaying a failure).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkCase } from './fuzz/check.js';
import { everyLineMutations, type Mutation, mutations } from './fuzz/mutate.js';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const target = opt('--cases', 10_000);
const seed0 = opt('--seed', 1);
const root = path.resolve(import.meta.dirname, '../../fixtures');

const everyLine = args.includes('--every-line');

const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '') : '';
const inputs = listInputs(root).filter((f) => path.relative(root, f).includes(only));
let cases = 0;
let failures = 0;
let slowest = 0;
const check = (file: string, original: Buffer, m: Mutation, seed: number | null): void => {
  const r = checkCase(original, m, 20_000);
  cases++;
  slowest = Math.max(slowest, r.ms);
  if (!r.ok) {
    failures++;
    console.log(`FAIL ${path.relative(root, file)} ${m.name}${seed === null ? '' : ` (seed ${seed})`}: ${r.problem}`);
  }
};
const bound = everyLine && !args.includes('--cases') ? Number.POSITIVE_INFINITY : target;
if (everyLine) {
  for (const file of inputs) {
    const original = readFileSync(file);
    for (const m of everyLineMutations(original)) {
      if (cases >= bound) break;
      check(file, original, m, null);
    }
  }
}
for (let round = 0; !everyLine && cases < target; round++) {
  for (let i = 0; i < inputs.length && cases < target; i++) {
    const file = inputs[i] as string;
    const other = inputs[(i + 1 + round) % inputs.length] as string;
    const original = readFileSync(file);
    const seed = seed0 + round * 7919 + i;
    for (const m of mutations(original, readFileSync(other), seed, round === 0 ? 10 * 1024 * 1024 : 64 * 1024)) {
      check(file, original, m, seed);
      if (cases >= target) break;
    }
  }
  if (inputs.length === 0) break;
}
console.log(`${cases} cases over ${inputs.length} fixtures, slowest ${slowest.toFixed(0)} ms`);
console.log(`${cases - failures} passed, ${failures} failed`);
process.exitCode = failures > 0 ? 1 : 0;

function listInputs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listInputs(p));
    else if (name.startsWith('input.')) out.push(p);
  }
  return out;
}
