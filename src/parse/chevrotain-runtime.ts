import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Chevrotain from 'chevrotain';

/**
 * Chevrotain, loaded from the single-file build the package ships (`lib/chevrotain.min.mjs`)
 * rather than its package entry, which is about two hundred ES modules (Chevrotain's own and
 * lodash-es): about 20 ms instead of 300 ms, paid by every worker thread of a scan (issue 7).
 * Both builds are the same version from the same package; when the bundle is missing (another
 * packaging), the package entry is used. Every grammar imports Chevrotain's values from here, so
 * a scan never holds two copies (tokens of one copy are not understood by the other's lexer).
 */
const api: typeof Chevrotain = await load();

async function load(): Promise<typeof Chevrotain> {
  const entry = createRequire(import.meta.url).resolve('chevrotain'); // …/chevrotain/lib/src/api.js
  const bundle = path.join(path.dirname(entry), '..', 'chevrotain.min.mjs');
  if (existsSync(bundle)) return (await import(pathToFileURL(bundle).href)) as typeof Chevrotain;
  return import('chevrotain');
}

export const { createToken, CstParser, EmbeddedActionsParser, Lexer } = api;
export type CstParser = Chevrotain.CstParser;
export type EmbeddedActionsParser = Chevrotain.EmbeddedActionsParser;
export type Lexer = Chevrotain.Lexer;
export type { CstNode, CustomPatternMatcherReturn, IToken, TokenType } from 'chevrotain';
