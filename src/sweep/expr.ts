/**
 * A tiny arithmetic language for per-concurrency rules (`max(50, 10 * concurrency)`): numbers,
 * the variable `concurrency`, + - * /, unary minus, parentheses, max() and min(). It is parsed by
 * hand and never evaluated as code, so a sweep file cannot run anything.
 */
export type Expr =
  | { readonly kind: 'num'; readonly value: number }
  | { readonly kind: 'var' }
  | { readonly kind: 'neg'; readonly arg: Expr }
  | { readonly kind: 'bin'; readonly op: '+' | '-' | '*' | '/'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'call'; readonly fn: 'max' | 'min'; readonly args: readonly Expr[] };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([A-Za-z_]+)|(.))/y;

/** Parses a rule; returns an error text (lowercase) instead of throwing. */
export function parseExpr(text: string): Expr | string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const m = TOKEN.exec(text);
    if (!m) break;
    const t = m[1] ?? m[2] ?? m[3];
    if (t !== undefined) tokens.push(t);
  }
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const fail = (what: string): string => `${what} at ${JSON.stringify(peek() ?? 'end')}`;

  function primary(): Expr | string {
    const t = peek();
    if (t === undefined) return 'unexpected end of expression';
    pos++;
    if (/^[\d.]/.test(t)) return { kind: 'num', value: Number(t) };
    if (t === 'concurrency') return { kind: 'var' };
    if (t === '-') {
      const arg = primary();
      return typeof arg === 'string' ? arg : { kind: 'neg', arg };
    }
    if (t === '(') {
      const e = sum();
      if (typeof e === 'string') return e;
      if (peek() !== ')') return fail('expected ")"');
      pos++;
      return e;
    }
    if (t === 'max' || t === 'min') {
      if (peek() !== '(') return fail(`expected "(" after ${t}`);
      pos++;
      const args: Expr[] = [];
      for (;;) {
        const a = sum();
        if (typeof a === 'string') return a;
        args.push(a);
        if (peek() === ',') pos++;
        else break;
      }
      if (peek() !== ')') return fail('expected ")"');
      pos++;
      return { kind: 'call', fn: t, args };
    }
    pos--;
    return fail('unknown name or symbol (allowed: numbers, concurrency, + - * /, max, min, parentheses)');
  }

  function chain(next: () => Expr | string, ops: readonly string[]): Expr | string {
    let left = next();
    while (typeof left !== 'string') {
      const op = peek();
      if (op === undefined || !ops.includes(op)) break;
      pos++;
      const right = next();
      if (typeof right === 'string') return right;
      left = { kind: 'bin', op: op as '+' | '-' | '*' | '/', left, right };
    }
    return left;
  }
  const product = (): Expr | string => chain(primary, ['*', '/']);
  const sum = (): Expr | string => chain(product, ['+', '-']);

  const e = sum();
  if (typeof e === 'string') return e;
  return pos < tokens.length ? fail('unexpected token') : e;
}

/** Evaluates a parsed rule for one concurrency. */
export function evalExpr(e: Expr, concurrency: number): number {
  switch (e.kind) {
    case 'num':
      return e.value;
    case 'var':
      return concurrency;
    case 'neg':
      return -evalExpr(e.arg, concurrency);
    case 'call': {
      const values = e.args.map((a) => evalExpr(a, concurrency));
      return e.fn === 'max' ? Math.max(...values) : Math.min(...values);
    }
    case 'bin': {
      const a = evalExpr(e.left, concurrency);
      const b = evalExpr(e.right, concurrency);
      return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : a / b;
    }
  }
}
