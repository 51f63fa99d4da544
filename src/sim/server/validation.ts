/**
 * zod → the venue's 400 validation body: one `{field, message}` per problem, the field as a dotted path
 * (`order.makerAmount`), unknown properties as `property x should not exist`.
 */
import type { z } from 'zod';
import { validationError, type HttpError, type ValidationIssue } from './http-errors.js';

export function zodIssues(error: z.ZodError, root = 'body'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = base ? `${base}.${key}` : key;
        issues.push({ field, message: `property ${field} should not exist` });
      }
      continue;
    }
    const field = base || root;
    issues.push({ field, message: `${field} ${issue.message}` });
  }
  return issues;
}

/** Parses `value` with `schema` or throws the 400 validation answer. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, root = 'body'): T {
  const result = schema.safeParse(value);
  if (!result.success) throw zodValidationError(result.error, root);
  return result.data;
}

export function zodValidationError(error: z.ZodError, root = 'body'): HttpError {
  return validationError(zodIssues(error, root));
}
