import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { LineParser } from '../../src/core/grammar.js';
import { timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import type { RelPath } from '../../src/core/types.js';
import { isObject, metricsEntry } from '../trtllm-serve-metrics-json/fields.js';
import { parsePythonLiteral } from './python-literal.js';

/** How much of a line a syntax warning quotes: where the record broke off. */
const QUOTED_CHARS = 40;

/**
 * One `--iteration_log` line after another: each a statistics dict as Python prints it, read
 * into the timeline exactly as `/metrics` elements are (`trtllm-serve-metrics-json`'s
 * `metricsEntry`: same keys, same columns). Each line is one record on its own, so the log is
 * read as a stream, in memory that does not grow with it beyond the series' columns.
 */
export function iterationLogLineParser(path: RelPath, sink: DiagnosticSink): LineParser {
  const series = new TimelineSeriesBuilder();
  return {
    line(text, lineNo) {
      const start = firstNonBlank(text);
      // a blank line, or a line that is no record (left to the other grammars that claim the file)
      if (start < 0 || text[start] !== '{') return false;
      const parsed = parsePythonLiteral(text, start);
      if (!parsed.ok) {
        const found = parsed.at >= text.length ? text.slice(-QUOTED_CHARS) : text.slice(parsed.at, parsed.at + QUOTED_CHARS);
        const expected = parsed.at >= text.length ? `${parsed.expected} (the line ends inside its record: cut short?)` : parsed.expected;
        sink.report('parse/syntax', { file: path, line: lineNo, column: Math.min(parsed.at, text.length) + 1 }, expected, found);
        return true;
      }
      const at = { file: path, line: lineNo, column: 1 };
      const stats = parsed.value;
      if (!isObject(stats) || !('iter' in stats || 'iterLatencyMS' in stats)) {
        sink.report('json/not-a-result', at, isObject(stats) ? Object.keys(stats).slice(0, 6).join(', ') : typeof stats);
        return true;
      }
      series.push(metricsEntry(stats, at));
      return true;
    },
    finish() {
      // the engine statistics of the trtllm-bench run written beside them (linkServer: an offline run's own)
      return timelineRecords(path, series, sink, 'trtllm-bench');
    },
  };
}

/** Index of the first character that is not a space or tab; -1 on a blank line. */
function firstNonBlank(text: string): number {
  for (let i = 0; i < text.length; i++) if (text[i] !== ' ' && text[i] !== '\t') return i;
  return -1;
}
