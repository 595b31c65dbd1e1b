// Failures as values: bad input from outside (a payload that does not decode, an event that does
// not fit the state) is a Result, never an exception; a failed call never changes its input.
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(error: string): Result<T> {
  return { ok: false, error };
}

// A broken invariant of this code's own making (not bad input): a bug, so it stops the caller
// like a C++ assert does, instead of travelling on as a value.
export function invariant(condition: boolean, why: string): asserts condition {
  if (!condition) throw new Error(`invariant broken: ${why}`);
}
