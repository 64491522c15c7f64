// The building blocks of the contract: a request declares its input schema (parsed by main at
// the boundary) and its result type (a phantom: main is trusted to return what it declares); a
// push stream declares its payload type.
import type { z } from 'zod';
import type { Result } from '../result';

export interface RequestSpec<I extends z.ZodType, R> {
  readonly input: I;
  /** Phantom: carries the result type only. Never set at runtime. */
  readonly result?: { readonly type: R };
}

export interface StreamSpec<P> {
  /** Phantom: carries the payload type only. Never set at runtime. */
  readonly payload?: { readonly type: P };
}

/** `request<Result>()(inputSchema)`: the result type is given, the input type is inferred. */
export function request<R>() {
  return <I extends z.ZodType>(input: I): RequestSpec<I, R> => ({ input });
}

export function stream<P>(): StreamSpec<P> {
  return {};
}

export type AnyRequestSpec = RequestSpec<z.ZodType, unknown>;
export type InputOf<S> = S extends RequestSpec<infer I, unknown> ? z.input<I> : never;
export type ParsedInputOf<S> = S extends RequestSpec<infer I, unknown> ? z.output<I> : never;
export type ResultOf<S> = S extends { readonly result?: { readonly type: infer R } } ? R : never;
export type PayloadOf<S> = S extends { readonly payload?: { readonly type: infer P } } ? P : never;
export type Reply<S> = Promise<Result<ResultOf<S>>>;
