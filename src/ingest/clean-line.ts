/** ANSI CSI sequences (colours, cursor moves), OSC sequences and stray ESC characters. */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]?/g;

/** A longer head drawn over is kept by no reader: the line it would be joined into is a result block's (a few dozen characters). */
const MAX_OVERWRITTEN_CHARS = 4096;

export interface CleanLine {
  readonly text: string;
  readonly hadAnsi: boolean;
  readonly hadRedraw: boolean;
  /**
   * What the line began with before its first `\r` when a redraw after it took its place (ANSI
   * stripped; absent when blank, kept or longer than MAX_OVERWRITTEN_CHARS): another writer's
   * text a progress bar was drawn over, as when a client's stdout, written 8 KiB at a time, stops
   * inside a line and its own bar follows.
   */
  readonly overwritten?: string;
}

/**
 * Cleans one physical line: drops a CRLF's `\r`, keeps what a terminal would show after tqdm's
 * `\r` redraws (the last non-empty segment) and strips ANSI escapes.
 */
export function cleanLine(raw: string): CleanLine {
  let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  let hadRedraw = false;
  let overwritten: string | undefined;
  if (text.includes('\r')) {
    hadRedraw = true;
    const parts = text.split('\r');
    const kept = parts.findLast((p) => p.trim() !== '') ?? '';
    const first = parts[0] as string;
    if (first !== kept && first.length <= MAX_OVERWRITTEN_CHARS && first.trim() !== '') overwritten = withoutAnsi(first);
    text = kept;
  }
  let hadAnsi = false;
  if (text.includes('\x1b')) {
    hadAnsi = true;
    text = withoutAnsi(text);
  }
  return overwritten === undefined ? { text, hadAnsi, hadRedraw } : { text, hadAnsi, hadRedraw, overwritten };
}

function withoutAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}
