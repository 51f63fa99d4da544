/**
 * How any thrown value becomes text, in one place: log fields, CLI messages and error chains all use `errorText`.
 *
 * Invariant: never throws, whatever was thrown (an Error, a string, an object, undefined).
 */
import { describeValue } from './venue-rules/index.js';

/** The message of an Error (prefixed with its class name when `withName`), or a short description of anything else. */
export function errorText(error: unknown, options: { readonly withName?: boolean } = {}): string {
  if (error instanceof Error) return options.withName === true ? `${error.name}: ${error.message}` : error.message;
  return typeof error === 'string' ? error : describeValue(error);
}
