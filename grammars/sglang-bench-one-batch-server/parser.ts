/**
 * document   := (warmup | serverCase | table | looseLine)*
 * warmup     := WarmupBegin Newline? (serverCase | warmupLine)* (WarmupEnd Newline?)?
 *               — also ends at a report table or at the next WarmupBegin (a run cut short)
 * serverCase := BatchSize Newline? (caseBody Newline? | Newline)*
 * caseBody   := CaseValue | KnownLine | OtherLine
 *               — log lines written into a case do not end it; the next case, banner, table or
 *                 closing line (RunEnd) does
 * table      := TableHeader Newline? ((TableRule | TableRow) Newline?)*   — ends at a blank line
 * looseLine  := (other | WarmupEnd) Newline? | Newline
 * warmupLine := other Newline? | Newline
 * other      := ReportLens | CaseValue | KnownLine | RunEnd | TableRule | TableRow | OtherLine
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import {
  allTokens,
  BatchSize,
  CaseValue,
  KnownLine,
  Newline,
  OtherLine,
  ReportLens,
  RunEnd,
  TableHeader,
  TableRow,
  TableRule,
  WarmupBegin,
  WarmupEnd,
} from './tokens.js';

class OneBatchServerParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([
        { ALT: () => this.SUBRULE(this.warmup) },
        { ALT: () => this.SUBRULE(this.serverCase) },
        { ALT: () => this.SUBRULE(this.table) },
        { ALT: () => this.SUBRULE(this.looseLine) },
      ]);
    });
  });

  warmup = this.RULE('warmup', () => {
    this.CONSUME(WarmupBegin);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.serverCase) }, { ALT: () => this.SUBRULE(this.warmupLine) }]);
    });
    this.OPTION2(() => {
      this.CONSUME(WarmupEnd);
      this.OPTION3(() => this.CONSUME2(Newline));
    });
  });

  serverCase = this.RULE('serverCase', () => {
    this.CONSUME(BatchSize);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.SUBRULE(this.caseBody);
            this.OPTION2(() => this.CONSUME2(Newline));
          },
        },
        { ALT: () => this.CONSUME3(Newline) },
      ]);
    });
  });

  caseBody = this.RULE('caseBody', () => {
    this.OR([{ ALT: () => this.CONSUME(CaseValue) }, { ALT: () => this.CONSUME(KnownLine) }, { ALT: () => this.CONSUME(OtherLine) }]);
  });

  table = this.RULE('table', () => {
    this.CONSUME(TableHeader);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(TableRule) }, { ALT: () => this.CONSUME(TableRow) }]);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([{ ALT: () => this.SUBRULE(this.other) }, { ALT: () => this.CONSUME(WarmupEnd) }]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });

  warmupLine = this.RULE('warmupLine', () => {
    this.OR([
      {
        ALT: () => {
          this.SUBRULE(this.other);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });

  other = this.RULE('other', () => {
    this.OR([
      { ALT: () => this.CONSUME(ReportLens) },
      { ALT: () => this.CONSUME(CaseValue) },
      { ALT: () => this.CONSUME(KnownLine) },
      { ALT: () => this.CONSUME(RunEnd) },
      { ALT: () => this.CONSUME(TableRule) },
      { ALT: () => this.CONSUME(TableRow) },
      { ALT: () => this.CONSUME(OtherLine) },
    ]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const oneBatchServerParser = lazily(() => new OneBatchServerParser());
