import type { z } from 'zod';

/** A type with every intersection and array element flattened into plain object types, at every depth. */
type Flat<T> =
  T extends ReadonlyArray<infer U> ? Flat<U>[] : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;

/** True when A and B are the same type: the same fields, none optional in one and required in the other. */
type Same<A, B> =
  (<G>() => G extends Flat<A> ? 1 : 2) extends <G>() => G extends Flat<B> ? 1 : 2 ? true : false;

/**
 * `exactly<T>()(schema)`: the schema, checked by the compiler to describe exactly `T`, the type the server returns
 * and the pages read. An answer is serialised from its schema, which drops any field it does not name: a field added
 * to `T` and not to the schema would silently vanish from the answer, so that is a type error here (as is a field
 * only the schema has, or a type that differs). `satisfies z.ZodType<T>` would accept a schema missing an optional
 * field.
 */
export const exactly =
  <T>() =>
  <S extends z.ZodType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { notExactly: T })): S =>
    schema;
