import type { SweepEvent } from '../../sweep/events.js';

/** The part of a terminal stream the progress line needs (process.stderr fits). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** A one-line live progress display on stderr, redrawn in place; only when stderr is a TTY. */
export function progressLine(stream: ProgressStream): (e: SweepEvent) => void {
  if (!stream.isTTY) return () => undefined;
  let position = '';
  const draw = (text: string, final = false): void => {
    stream.write(`\r\x1b[K${text}${final ? '\n' : ''}`);
  };
  return (e) => {
    switch (e.kind) {
      case 'server-start':
        position = `[${e.index + 1}/${e.total}] ${e.variant}`;
        draw(`${position}: starting server…`);
        break;
      case 'server-ready':
        draw(`${position}: server ready`);
        break;
      case 'bench-start':
        draw(`${position}: concurrency ${e.concurrency}${e.repeat > 1 ? ` repeat ${e.repeat}` : ''} (${e.done + 1}/${e.runs})…`);
        break;
      case 'variant-skipped':
        draw(`${e.variant}: every result present, skipped (--resume)`, true);
        break;
      case 'variant-end':
        draw(`${position}: ${e.outcome}${e.error ? ` (${e.error})` : ''}`, true);
        break;
    }
  };
}
