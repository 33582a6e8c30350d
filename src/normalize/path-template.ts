import { UsageError } from '../core/errors.js';
import type { FieldValue } from '../core/types.js';
import type { PathConfig } from './path-config.js';
import { setCell } from '../core/cells.js';
import { escapeRegExp } from '../core/literals.js';

/** A compiled `--path-template`: reads declared columns out of a relative path. */
export interface PathTemplate {
  readonly source: string;
  readonly columns: readonly string[];
  readonly regex: RegExp;
}

const PLACEHOLDER = /\{([a-z_][a-z0-9_.]*)\}|\*/g;

/**
 * Compiles `'{engine}/{label}/c{max_concurrency}.log'`: placeholders are column names and match
 * inside one path segment; `*` matches any text inside one segment. The template is matched
 * against the END of the path, so the scanned root may sit anywhere above it.
 */
export function compilePathTemplate(template: string): PathTemplate {
  const columns: string[] = [];
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    pattern += escapeRegExp(template.slice(last, m.index));
    if (m[0] === '*') pattern += '[^/]*';
    else {
      const name = m[1] ?? '';
      if (columns.includes(name)) throw new UsageError(`--path-template names {${name}} twice`);
      columns.push(name);
      pattern += `([^/]+?)`;
    }
    last = m.index + m[0].length;
  }
  pattern += escapeRegExp(template.slice(last));
  if (columns.length === 0) throw new UsageError(`--path-template ${JSON.stringify(template)} has no {column} placeholder`);
  return { source: template, columns, regex: new RegExp(`(?:^|/)${pattern}$`) };
}

/** Values the template reads from a path, or an empty object when the path does not fit it. */
export function configFromTemplate(template: PathTemplate, relPath: string): PathConfig {
  const m = template.regex.exec(relPath);
  if (!m) return {};
  const out: PathConfig = {};
  template.columns.forEach((c, i) => {
    const raw = m[i + 1];
    if (raw !== undefined && raw !== '') setCell(out, c, templateValue(raw));
  });
  return out;
}

function templateValue(raw: string): FieldValue {
  if (/^inf$/i.test(raw)) return Infinity;
  if (/^[+-]?\d+(?:\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}
