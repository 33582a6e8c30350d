/** A path relative to the scanned root, `/`-separated. Never absolute in any output. */
export type RelPath = string & { readonly __brand: 'RelPath' };

/** Brands a string as a relative path. Callers are responsible for making it relative first. */
export function asRelPath(path: string): RelPath {
  return path.replaceAll('\\', '/') as RelPath;
}

/** A 1-based position in a source file. */
export interface SourcePos {
  readonly file: RelPath;
  readonly line: number;
  readonly column: number;
}

export type Scalar = string | number | boolean | null;
/** A value in a record field: scalars, or a list of numbers (per-position acceptance). */
export type FieldValue = Scalar | readonly number[];
