import type { Grammar, TextHead } from '../../src/core/grammar.js';

/**
 * A head cleaner that remembers its last head: the grammars it serves detect on the same head in
 * turn, which is cleaned once.
 */
export function headCleaner(clean: (head: string) => string): (head: string) => string {
  let last: { readonly head: string; readonly clean: string } = { head: '', clean: '' };
  return (head) => {
    if (head !== last.head) last = { head, clean: clean(head) };
    return last.clean;
  };
}

/** A grammar's detect on the head `clean` leaves (the same TextHead when it leaves it as it is). */
export function detectingOn(g: Grammar, clean: (head: string) => string): Grammar['detect'] {
  return (input: TextHead) => {
    const head = clean(input.head);
    return g.detect(head === input.head ? input : { path: input.path, head });
  };
}
