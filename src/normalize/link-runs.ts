import type { ConfigSource } from './server-sources.js';
import { spanOverlaps, type TimeWindow } from './time-window.js';

/** Words in log file names that say nothing about the configuration. */
const GENERIC = new Set(['bench', 'benchmark', 'serve', 'server', 'serving', 'log', 'logs', 'result', 'results', 'run', 'out', 'output', 'client', 'vllm', 'sglang', 'trtllm', 'txt', 'json']);

/** Configuration words of a file name: `bench-draft-model-c16.log` → draft, model. */
export function nameTokens(file: string): Set<string> {
  const base = (file.split('/').at(-1) ?? file).replace(/\.[a-z0-9]+$/i, '').toLowerCase();
  const tokens = base.split(/[-_.\s=]+/).filter((t) => t.length > 0 && !GENERIC.has(t) && !/^(?:c|bs|conc|qps|rps|rate)?\d+$/.test(t));
  return new Set(tokens);
}

function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '' : file.slice(0, i);
}

/** Result of linking one run: the chosen source, or the tied candidates when none could be chosen. */
export interface LinkResult {
  readonly source: ConfigSource | null;
  readonly tied: readonly ConfigSource[];
}

/**
 * Picks the server log / launch command of a run among the sources in the run's directory or its
 * parent. Ranking: when both the run and the log have times, a log whose stats span overlaps the
 * run comes first and a log that does not is excluded; then the number of configuration words the
 * file names share (`draft-model-serve.log` for `bench-draft-model-c16.log`); then the same
 * directory before the parent. A tie at the top links nothing (the caller reports it).
 */
export function linkServer(runFile: string, window: TimeWindow | null, sources: readonly ConfigSource[]): LinkResult {
  const dir = dirOf(runFile);
  const parent = dir === '' ? null : dirOf(dir);
  const tokens = nameTokens(runFile);
  const ranked: { src: ConfigSource; covers: number; shared: number; near: number }[] = [];
  for (const src of sources) {
    if (src.kind !== 'server') continue;
    const d = dirOf(src.file);
    if (d !== dir && d !== parent) continue;
    let covers = 0;
    if (window && src.span) {
      if (!spanOverlaps(window, src.span.first, src.span.last)) continue;
      covers = 1;
    }
    const shared = [...nameTokens(src.file)].filter((t) => tokens.has(t)).length;
    ranked.push({ src, covers, shared, near: d === dir ? 1 : 0 });
  }
  ranked.sort((a, b) => b.covers - a.covers || b.shared - a.shared || b.near - a.near);
  const [top, second] = ranked;
  if (!top) return { source: null, tied: [] };
  if (second && second.covers === top.covers && second.shared === top.shared && second.near === top.near) {
    return { source: null, tied: ranked.filter((r) => r.covers === top.covers && r.shared === top.shared && r.near === top.near).map((r) => r.src) };
  }
  return { source: top.src, tied: [] };
}

/** The runner manifest that governs a run: the deepest one in the run's directory or above it. */
export function linkManifest(runFile: string, sources: readonly ConfigSource[]): ConfigSource | null {
  let best: ConfigSource | null = null;
  for (const src of sources) {
    if (src.kind !== 'manifest') continue;
    const d = dirOf(src.file);
    if (d !== '' && !runFile.startsWith(`${d}/`)) continue;
    if (!best || d.length > dirOf(best.file).length) best = src;
  }
  return best;
}
