/**
 * Cells of rows keyed by column names that come from logs: a log may name a key `__proto__`,
 * which a plain assignment would take as the object's prototype instead of a cell.
 */

/** Sets `row[column]` as an own, enumerable property, whatever the column's name. */
export function setCell<V>(row: Record<string, V>, column: string, value: V): void {
  if (column === '__proto__') Object.defineProperty(row, column, { value, enumerable: true, writable: true, configurable: true });
  else row[column] = value;
}

/** `row[column]` when the row has that cell itself: undefined, not what every object inherits (`constructor`). */
export function ownCell<V>(row: Readonly<Record<string, V>>, column: string): V | undefined {
  return Object.hasOwn(row, column) ? row[column] : undefined;
}

/**
 * A row with every one of `columns`, all null, in that order, to be copied with a spread. Objects
 * built key by key with this many columns fall into V8's slow dictionary mode (about 5× the
 * memory); a JSON.parse'd template and its copies do not.
 */
export function nullRowTemplate(columns: readonly string[]): Record<string, null> {
  return JSON.parse(JSON.stringify(Object.fromEntries(columns.map((c) => [c, null])))) as Record<string, null>;
}

/**
 * A lookup table, frozen, with no prototype, for keys a log names (labels, JSON keys, flags): a
 * plain object literal answers `constructor`, `toString` or `__proto__` from Object.prototype, and
 * a result JSON with such a key was read as if the table knew it (a column named `undefined`).
 */
export function lookupTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
