/** ANSI CSI sequences (colours, cursor moves), OSC sequences and stray ESC characters. */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]?/g;

export interface CleanLine {
  readonly text: string;
  readonly hadAnsi: boolean;
  readonly hadRedraw: boolean;
}

/**
 * Cleans one physical line: drops a CRLF's `\r`, keeps what a terminal would show after tqdm's
 * `\r` redraws (the last non-empty segment) and strips ANSI escapes.
 */
export function cleanLine(raw: string): CleanLine {
  let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  let hadRedraw = false;
  if (text.includes('\r')) {
    hadRedraw = true;
    const parts = text.split('\r');
    text = parts.findLast((p) => p.trim() !== '') ?? '';
  }
  let hadAnsi = false;
  if (text.includes('\x1b')) {
    hadAnsi = true;
    text = text.replace(ANSI, '');
  }
  return { text, hadAnsi, hadRedraw };
}
