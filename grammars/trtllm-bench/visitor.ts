import type { CstNode, IToken } from '../../src/parse/chevrotain-runtime.js';
import { byOffset } from '../../src/parse/chevrotain.js';
import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';
import { TITLE_LINE } from './tokens.js';

export type ReportLineKind = 'kv' | 'breakdown' | 'sub' | 'row' | 'machine' | 'other';

/** One line of a report body, tagged with the section it sits in. */
export interface ReportLine {
  readonly kind: ReportLineKind;
  readonly text: string;
  readonly line: number;
}

/** One `= TITLE` section and its body lines. */
export interface ReportSection {
  readonly title: string;
  /** Line of the section's opening rule. */
  readonly line: number;
  readonly lines: ReportLine[];
  /** Lines another process wrote between the rules and title of its header, passed over. */
  readonly interleaved: readonly number[];
  /** Line of its `= TITLE` line. */
  readonly titleLine: number;
}

/** One report: consecutive sections printed by one `trtllm-bench` run. */
export interface Report {
  readonly sections: ReportSection[];
  /** Last line of the report (its closing rule when there is one). */
  endLine: number;
  /** Its last line is a closing rule. */
  closed: boolean;
}

const KIND: Readonly<Record<string, ReportLineKind>> = {
  KvLine: 'kv',
  Breakdown: 'breakdown',
  SubHeader: 'sub',
  PercentileRow: 'row',
  MachineLine: 'machine',
};

/**
 * Sections that start a new run: every report opens with its backend section, or (TensorRT-LLM's
 * benchmarks/suite, before trtllm-bench) with `= METADATA`, its ENGINE DETAILS printed second.
 */
const OPENING = /^(?:engine details|pytorch backend|metadata)$/i;
const METADATA = /^metadata$/i;

/** Whether a report's next section, an opening one, starts the next report. */
function opensNext(title: string, current: Report): boolean {
  if (!OPENING.test(title) || current.sections.length === 0) return false;
  // the suite's ENGINE DETAILS, under its METADATA
  return !(/^engine details$/i.test(title) && current.sections.every((s) => METADATA.test(s.title)));
}

/**
 * Walks the CSTs of a source's pieces, in order, into reports. A log line inside a report does
 * not end it; an opening section (see opensNext) or a section seen already (by its kind: see sameKind) starts the
 * next one (reports printed back to back, or in a write-up).
 */
export function toReports(documents: Iterable<CstNode>): Report[] {
  const reports: Report[] = [];
  let current: Report | null = null;
  for (const document of documents) {
    for (const node of (document.children.report as CstNode[] | undefined) ?? []) {
      const tokens = byOffset([
        ...((node.children.SectionHeader as IToken[] | undefined) ?? []),
        ...((node.children.bodyLine as CstNode[] | undefined) ?? []).flatMap((b) => Object.values(b.children).flat() as IToken[]),
      ]).filter((t) => Number.isFinite(t.startLine));
      for (const t of tokens) {
        const line = t.startLine ?? 1;
        if (t.tokenType.name === 'SectionHeader') {
          const title = sectionTitle(t.image);
          const seen = current?.sections.some((s) => sameKind(s.title, title)) ?? false;
          if (current === null || seen || opensNext(title, current)) {
            current = { sections: [], endLine: line, closed: false };
            reports.push(current);
          }
          const headerLines = t.image.split('\n');
          const interleaved = headerLines.flatMap((text, k) => (INTERLEAVED_LINE.test(text) ? [line + k] : []));
          current.sections.push({ title, line, lines: [], interleaved, titleLine: line + Math.max(0, headerLines.findIndex((l) => TITLE_LINE.test(l))) });
          current.endLine = t.endLine ?? line;
          current.closed = false;
          continue;
        }
        if (current === null) continue;
        current.endLine = t.endLine ?? line;
        current.closed = t.tokenType.name === 'Rule';
        const kind = KIND[t.tokenType.name];
        const section = current.sections.at(-1);
        if (kind && section) section.lines.push({ kind, text: t.image, line });
      }
    }
  }
  return reports;
}

/** Section titles a report has one of: the results are `STATISTICS` (0.12–0.17) or `PERFORMANCE OVERVIEW`. */
function sameKind(a: string, b: string): boolean {
  const kind = (title: string): string => {
    const t = title.toLowerCase();
    return t === 'statistics' ? 'performance overview' : t;
  };
  return kind(a) === kind(b);
}

function sectionTitle(image: string): string {
  const titleLine = image.split('\n').find((l) => TITLE_LINE.test(l)) ?? '';
  return titleLine.replace(/^=[ \t]+/, '').trim();
}
