/**
 * The layers in front of a vLLM log message (formats.md §4.1), as a Chevrotain grammar over one line:
 *
 *   line := (Quote | DockerTs | BracketTs | Journald)* Proc* (Head FilePart? | PyLogHead)? Message?
 *
 * Quote `# `/`> ` (pasted copies), DockerTs `2025-05-19T10:13:11.123Z `, BracketTs
 * `[2024-07-08 15:17:34] `, Journald `Sep 22 23:46:41 host vllm[361991]: `, Proc
 * `(APIServer pid=1) ` (residual `[1;36m` colour codes accepted, and their caret notation
 * `^[[1;36m`), Head `INFO 05-19 10:13:11 `,
 * FilePart old `metrics.py:161] ` or new `[loggers.py:271] ` (DEBUG: relative paths), or in place of
 * both PyLogHead, the head of a Python logging configuration of the user's own, dated:
 * `2024-12-20 15:18:19 - vllm.engine.metrics - INFO - ` (`%(asctime)s - %(name)s - %(levelname)s -`)
 * or `2024-07-23 22:27:23,428 [INFO] ` (NVIDIA NIM's). The message keeps its own indentation, so
 * traceback frames logged through `logger.exception` stay indented.
 */
import { createToken, EmbeddedActionsParser, Lexer, type CustomPatternMatcherReturn, type IToken, type TokenType } from '../../src/parse/chevrotain-runtime.js';
import { lazily } from '../../src/parse/lazily.js';

/**
 * A token whose pattern is a sticky regex tried at the lexer's offset. `starts` lists every
 * character a match can begin with: the lexer then tries, at each offset, only the tokens that can
 * start with the character there (all tokens must say, or none is skipped).
 */
function stickyToken(name: string, re: RegExp, starts: readonly number[], push?: string): TokenType {
  const sticky = new RegExp(re.source, 'y');
  return createToken({
    name,
    line_breaks: false,
    start_chars_hint: [...starts],
    ...(push ? { push_mode: push } : {}),
    pattern: {
      exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
        sticky.lastIndex = offset;
        const m = sticky.exec(text);
        return m && m[0].length > 0 ? ([m[0]] as CustomPatternMatcherReturn) : null;
      },
    },
  });
}

const codes = (chars: string): number[] => [...chars].map((c) => c.charCodeAt(0));
const range = (from: string, to: string): number[] => Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => from.charCodeAt(0) + i);
const DIGITS = range('0', '9');
const WORD = [...range('a', 'z'), ...range('A', 'Z'), ...DIGITS, ...codes('_')];
const ANY = Array.from({ length: 0x10000 }, (_, i) => i);

/** A colour code whose ESC was lost on the way (`[1;36m`), or written in caret notation (`^[[1;36m`, `cat -v`). */
const COLOR = String.raw`(?:(?:\^\[)?\[[\d;]*m)?`;
const LEVEL_NAMES = 'DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL';
const LEVEL = `(?:${LEVEL_NAMES})`;
const Quote = stickyToken('Quote', /[#>] /, codes('#>'));
const DockerTs = stickyToken('DockerTs', /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)? /, DIGITS);
const BracketTs = stickyToken('BracketTs', /\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\] /, codes('['));
const Journald = stickyToken('Journald', /[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [\w.@-]+\[\d+\]: /, range('A', 'Z'));
/**
 * A process name: vLLM's (`APIServer`, `EngineCore_DP0`, `Worker_TP0`), Ray's actor class
 * (`_AsyncLLMEngine` of 2024's `--engine-use-ray`), or a Ray Data actor whose name nests its stage
 * in parentheses (`MapWorker(MapBatches(vLLMEngineStageUDF))`, three levels at most).
 */
const PROC_NAME = String.raw`[A-Za-z_](?:[^\s()]|\((?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))*\))*`;
/**
 * `(APIServer pid=1) `, `(VllmWorker rank=0 pid=12) `, Ray's `(RayWorkerWrapper pid=263, ip=10.0.16.95) `
 * (a worker on another node) and `(pid=12) ` (a task). Several in a row (`(APIServer pid=1)
 * (EngineCore_DP0 pid=276) `, Ray's `(Worker pid=312) (Worker_TP0 pid=312) `) are one behind the other.
 */
const Proc = stickyToken('Proc', new RegExp(`${COLOR}\\((?:${PROC_NAME}(?: rank=\\d+)? )?pid=\\d+(?:, ip=[\\w.:]+)?\\)${COLOR} `), codes('[(^'));
const Head = stickyToken(
  'Head',
  new RegExp(`${COLOR}${LEVEL}${COLOR} ${COLOR}\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?${COLOR} `),
  codes('[DIWEC^'),
  'afterHead',
);
/** A Python logging head with the date (`2024-12-20 15:18:19[,123] - logger.name - INFO - `, `… [INFO] `). */
const PyLogHead = stickyToken(
  'PyLogHead',
  new RegExp(String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? (?:- [\w.<>-]+ - ${LEVEL} -|\[${LEVEL}\])(?: |$)`),
  DIGITS,
  'afterPyLogHead',
);
const FileOld = stickyToken('FileOld', /[\w.<>-]+\.py:\d+\](?: |$)/, [...WORD, ...codes('.<>-')]);
const FileNew = stickyToken('FileNew', new RegExp(`${COLOR}\\[[\\w./<>-]+:\\d+\\]${COLOR}(?: |$)`), codes('[^'));
const Message = stickyToken('Message', /[^]+/, ANY);

// built on first use: most lines of a big log take the common-shape path and never need them
const lexer = lazily(
  () =>
    new Lexer(
      {
        modes: { pre: [Quote, DockerTs, BracketTs, Journald, Proc, Head, PyLogHead, Message], afterHead: [FileNew, FileOld, Message], afterPyLogHead: [Message] },
        defaultMode: 'pre',
      },
      { positionTracking: 'onlyOffset', ensureOptimizations: false, skipValidations: true },
    ),
);

/** What the prefix layers say about a line. */
export interface LinePrefix {
  readonly message: string;
  /** Log level of vLLM's own logger (absent for print/stderr output). */
  readonly level: string | null;
  /** `MM-DD HH:MM:SS` of vLLM's logger. */
  readonly stamp: { readonly month: number; readonly day: number; readonly time: string } | null;
  /**
   * Year, month and stamp of a wrapper that carries one (docker, `[YYYY-MM-DD …]`), or of the line's
   * own head when its logger prints the date (PyLogHead: then the same as `stamp`, with the year).
   */
  readonly wrapper: { readonly year: number | null; readonly month: number; readonly day: number; readonly time: string } | null;
  /**
   * `APIServer pid=1`, `EngineCore_DP0 pid=7`, or the journald `vllm[pid]`; '' when none. Of
   * nested process prefixes the last, innermost one: the process that wrote the line.
   */
  readonly process: string;
}

const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

class PrefixParser extends EmbeddedActionsParser {
  constructor() {
    super([Quote, DockerTs, BracketTs, Journald, Proc, Head, PyLogHead, FileOld, FileNew, Message], { recoveryEnabled: false, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  line = this.RULE('line', (): LinePrefix => {
    let wrapper: LinePrefix['wrapper'] = null;
    let process = '';
    let level: string | null = null;
    let stamp: LinePrefix['stamp'] = null;
    let message = '';
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(Quote) },
        { ALT: () => (wrapper = isoWrapper(this.CONSUME(DockerTs).image)) },
        { ALT: () => (wrapper = isoWrapper(this.CONSUME(BracketTs).image.slice(1))) },
        {
          ALT: () => {
            const j = this.CONSUME(Journald).image;
            wrapper = { year: null, month: MONTHS.indexOf(j.slice(0, 3)) / 3 + 1, day: Number(j.slice(4, 6)), time: j.slice(7, 15) };
            process = /\S+\[\d+\]/.exec(j.slice(16))?.[0] ?? '';
          },
        },
      ]);
    });
    this.MANY2(() => (process = procName(this.CONSUME(Proc))));
    this.OPTION2(() =>
      this.OR3([
        {
          ALT: () => {
            const head = this.CONSUME(Head).image.replace(/\[[\d;]*m/g, '');
            const m = /^(\w+) (\d\d)-(\d\d) (\d\d:\d\d:\d\d)/.exec(head);
            if (m) {
              level = m[1] ?? null;
              stamp = { month: Number(m[2]), day: Number(m[3]), time: m[4] ?? '' };
            }
            this.OPTION3(() => this.OR2([{ ALT: () => this.CONSUME(FileNew) }, { ALT: () => this.CONSUME(FileOld) }]));
          },
        },
        {
          ALT: () => {
            const head = pyLogHead(this.CONSUME(PyLogHead).image);
            level = head.level;
            stamp = head.stamp;
            wrapper = head.wrapper;
          },
        },
      ]),
    );
    this.OPTION4(() => (message = this.CONSUME(Message).image));
    return { message, level, stamp, wrapper, process };
  });
}

function isoWrapper(text: string): LinePrefix['wrapper'] {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d:\d\d:\d\d)/.exec(text);
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), time: m[4] ?? '' } : null;
}

/** Level and dated stamp of a PyLogHead: the date is the line's own, so it gives the year as a wrapper's would. */
function pyLogHead(image: string): Pick<LinePrefix, 'level' | 'stamp' | 'wrapper'> {
  const wrapper = isoWrapper(image);
  const m = /(?:- ([A-Z]+) -|\[([A-Z]+)\]) ?$/.exec(image);
  const level = m?.[1] ?? m?.[2] ?? null;
  return { level, stamp: wrapper && { month: wrapper.month, day: wrapper.day, time: wrapper.time }, wrapper };
}

/** What is inside the prefix's outer parentheses (a Ray Data name holds parentheses of its own). */
function procName(token: IToken): string {
  const image = token.image;
  return image.slice(image.indexOf('(') + 1, image.lastIndexOf(')'));
}

const parser = lazily(() => new PrefixParser());
const PLAIN = /^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d |^\(|^\d{4}-|^\[\d{4}-|^[A-Z][a-z]{2} [ \d]\d |^[#>] /;

/**
 * Splits a line into its prefix layers and message. Total: a line whose layers come in an
 * unexpected order is returned whole as the message.
 */
export function parsePrefix(text: string): LinePrefix {
  return commonPrefix(text) ?? parsePrefixByGrammar(text);
}

/**
 * vLLM's own prefix with no wrapper and no colour (`(APIServer pid=1) INFO 05-19 10:13:11
 * [core.py:1] `, the process optional): the shape of nearly every line a big log passes on. (A
 * line that starts with a digit is tried as COMMON_PY_LOG's instead.)
 */
const COMMON = /^(?:\(([A-Za-z_]\w*(?: rank=\d+)? pid=\d+)\) )?(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) (\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:\.\d+)? \[[\w./<>-]+:\d+\](?: |$)/;
/** A message that starts like a file part would be lexed as a second one (then the grammar returns the line whole). */
const FILE_PART_AHEAD = /^(?:\[[\d;]*m)?\[[\w./<>-]+:\d+\](?:\[[\d;]*m)?(?: |$)|^[\w.<>-]+\.py:\d+\](?: |$)/;

/**
 * The grammar's result without running it, for the common shape: one expression instead of a lexer
 * and a parser per line, which matters while their code is still cold (the first few thousand stats
 * lines of a log cost five times what later ones do). null for anything else, and a test checks it
 * agrees with the grammar wherever it answers.
 */
export function commonPrefix(text: string): LinePrefix | null {
  const c = text.charCodeAt(0);
  return c >= 48 && c <= 57 ? commonPyLogPrefix(text) : commonVllmPrefix(text);
}

function commonVllmPrefix(text: string): LinePrefix | null {
  const m = COMMON.exec(text);
  if (m === null) return null;
  const message = text.slice(m[0].length);
  if (FILE_PART_AHEAD.test(message)) return null;
  return {
    message,
    level: m[2] ?? null,
    stamp: { month: Number(m[3]), day: Number(m[4]), time: m[5] ?? '' },
    wrapper: null,
    process: m[1] ?? '',
  };
}

/** A PyLogHead and its message, nothing around them: a log written through the user's logging configuration. */
const COMMON_PY_LOG = new RegExp(String.raw`^(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:[.,]\d+)? (?:- [\w.<>-]+ - (${LEVEL_NAMES}) -|\[(${LEVEL_NAMES})\])(?: |$)`);

function commonPyLogPrefix(text: string): LinePrefix | null {
  const m = COMMON_PY_LOG.exec(text);
  if (m === null) return null;
  const [year, month, day, time] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
  return { message: text.slice(m[0].length), level: m[5] ?? m[6] ?? null, stamp: { month, day, time }, wrapper: { year, month, day, time }, process: '' };
}

/**
 * vLLM's prefix (its process optional) inside a message: a second record glued on by a lost newline
 * (`… Running: 32 $INFO 07-03 23:23:58 [metrics.py:536] Avg prompt throughput: …`).
 */
const GLUED_HEAD = new RegExp(`(?:\\([A-Za-z_]\\w*(?: rank=\\d+)? pid=\\d+\\) )?${LEVEL} \\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)? (?:\\[[\\w./<>-]+:\\d+\\]|[\\w.<>-]+\\.py:\\d+\\])(?: |$)`);

/** Where in `message` a second record starts, after some text of the first; -1 when none does. */
export function gluedRecordAt(message: string): number {
  const m = GLUED_HEAD.exec(message);
  return m === null || m.index === 0 ? -1 : m.index;
}

/** The Chevrotain grammar's reading of a line's prefix. */
export function parsePrefixByGrammar(text: string): LinePrefix {
  const plain: LinePrefix = { message: text, level: null, stamp: null, wrapper: null, process: '' };
  if (!PLAIN.test(text) && !text.includes('[')) return plain; // no layer can start here: skip the lexer
  const lexed = lexer().tokenize(text);
  if (lexed.errors.length > 0) return plain;
  const p = parser();
  p.input = lexed.tokens;
  const out = p.line();
  return p.errors.length > 0 ? plain : out;
}
