import type { ScanProgress } from '../../pipeline/scan.js';

const DEFAULTS = Object.freeze({ delayMs: 1000, intervalMs: 100, width: 24 });

/**
 * A progress line on stderr for scans that take more than a second: files, MB, runs, ETA. Only
 * on a TTY (never in pipes or CI, where it would be noise in logs).
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update: (p: ScanProgress) => void; done: () => void } {
  const enabled = stream.isTTY === true && !process.env.CI;
  const start = Date.now();
  let last = 0;
  let shown = false;
  return {
    update(p) {
      if (!enabled) return;
      const now = Date.now();
      if (now - start < DEFAULTS.delayMs || now - last < DEFAULTS.intervalMs) return;
      last = now;
      shown = true;
      const frac = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesDone / Math.max(1, p.filesTotal);
      const filled = Math.round(frac * DEFAULTS.width);
      const eta = frac > 0 ? ((now - start) / frac - (now - start)) / 1000 : 0;
      const mb = (b: number) => (b / 1e6).toFixed(0);
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(DEFAULTS.width - filled)}] ${p.filesDone}/${p.filesTotal} files, ` +
          `${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB, ${p.runs} runs, ETA ${eta.toFixed(0)}s\x1b[K`,
      );
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
