/** Marks a switch as exhaustive over a union: a new member is a compile error. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
