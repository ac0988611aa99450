/** The outcome of a decoder or validator: expected failures are values, not exceptions. */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Builds a successful {@link Result}. */
export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

/** Builds a failed {@link Result}. */
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
