/**
 * A value built on first use. Chevrotain lexers and parsers analyse their grammar when constructed
 * (tens of milliseconds for all of them); built lazily, a worker thread reading only server logs
 * never pays for the benchmark-report grammars (issue 7: start-up counts on every scan).
 */
export function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
