/** The ResponseValidationError `run` throws (any other outcome fails the test): for the wire parsers' bad-input tests. */
import { ResponseValidationError } from '../../src/exchange/errors.js';

export function validationError(run: () => unknown): ResponseValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResponseValidationError) return error;
    throw error;
  }
  throw new Error('expected a ResponseValidationError');
}
