/** One log line with its TensorRT-LLM prefix taken apart. */
export interface TrtLine {
  /** `I`, `W`, `E`, `V`, `D` (Python logger) or `INFO`, `WARNING`, `ERROR`, … (C++ runtime, uvicorn), null when none. */
  readonly level: string | null;
  /** `python` (`[TRT-LLM]`), `cpp` (`[TensorRT-LLM][INFO]`), `uvicorn` (`INFO:     …`) or `none`. */
  readonly source: 'python' | 'cpp' | 'uvicorn' | 'none';
  /** The prefix's clock as `YYYY-MM-DDTHH:MM:SS`, null when the line carries none. */
  readonly time: string | null;
  /** The logger's `[RANK n]` tag: the process's global rank (tagged when the run has several processes). */
  readonly rank: number | null;
  readonly message: string;
}

/**
 * `[MM/DD/YYYY-HH:MM:SS] [TRT-LLM] [I] `. The rank tag (`logger.set_rank`, runs of several
 * processes) sits before or after the level; 1.x PyTorch-backend lines put the `[_torch]` module tag
 * after the level, the rank right behind it: `[I] [_torch][RANK 1] `. A line without the clock is
 * read too: the clock comes from Python's logging setup, not the logger, and NVIDIA's own perf
 * tests write iteration lines without it.
 */
const PYTHON = /^(?:\[(\d\d)\/(\d\d)\/(\d{4})-(\d\d:\d\d:\d\d)\] )?\[TRT-LLM\](?: \[RANK (\d+)\])? \[([A-Z])\](?: ?\[_torch\])?(?: ?\[RANK (\d+)\])? ?/;
const CPP = /^\[TensorRT-LLM\](?:\[RANK (\d+)\])?\[([A-Z]+)\] ?/;
const UVICORN = /^(INFO|WARNING|ERROR|CRITICAL|DEBUG):\s+/;
/** Docker/journald wrappers and Markdown quotes put in front of the tool's own prefix. */
const WRAPPER = /^(?:> ?)+|^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z? /;

/** Splits a line into level, clock, rank and message (level names as the two loggers print them). */
export function splitPrefix(raw: string): TrtLine {
  const text = raw.replace(WRAPPER, '');
  const py = PYTHON.exec(text);
  if (py) {
    const rank = py[5] ?? py[7];
    return {
      level: py[6] ?? null,
      source: 'python',
      time: py[4] === undefined ? null : `${py[3]}-${py[1]}-${py[2]}T${py[4]}`,
      rank: rank === undefined ? null : Number(rank),
      message: text.slice(py[0].length),
    };
  }
  const cpp = CPP.exec(text);
  if (cpp) return { level: cpp[2] ?? null, source: 'cpp', time: null, rank: cpp[1] === undefined ? null : Number(cpp[1]), message: text.slice(cpp[0].length) };
  const uv = UVICORN.exec(text);
  if (uv) return { level: uv[1] ?? null, source: 'uvicorn', time: null, rank: null, message: text.slice(uv[0].length) };
  return { level: null, source: 'none', time: null, rank: null, message: text };
}

/** True for error-level lines of either logger (`[E]`, `[ERROR]`). */
export function isErrorLevel(l: TrtLine): boolean {
  return l.level === 'E' || l.level === 'ERROR' || l.level === 'CRITICAL';
}

/** Level names the shared traceback tracker understands (`I` → `INFO`). */
export function trackerLevel(l: TrtLine): string | undefined {
  const map: Record<string, string> = { I: 'INFO', W: 'WARNING', V: 'DEBUG', D: 'DEBUG', E: 'ERROR' };
  if (l.level === null) return undefined;
  return map[l.level] ?? l.level;
}
