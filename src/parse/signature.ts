/**
 * A detection pattern with the literals one of which any match must contain. `test` looks for the
 * literals first (`includes` is a fast scan) and runs the expression only when one is there:
 * detection runs every grammar over the head of every file, and a line-anchored expression with
 * `.*` costs a pass over a 64 KiB head even when nothing like it is there.
 */
export interface Signature {
  test(text: string): boolean;
}

export function signature(literals: readonly string[], pattern: RegExp): Signature {
  if (pattern.global || pattern.sticky) throw new Error('a signature tests, it does not iterate: no g or y flag');
  return { test: (text) => literals.some((l) => text.includes(l)) && pattern.test(text) };
}
