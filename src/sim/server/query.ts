/**
 * Query-string validation in the venue's style: unknown fields are a 400 validation error
 * (`property x should not exist`), integers are strict decimal digits within a range.
 *
 * Owns: turning URLSearchParams into typed values or a validation error naming each bad field.
 */
import { validationError, type ValidationIssue } from './http-errors.js';

const INTEGER = /^-?\d+$/;

export function unknownQueryIssues(query: URLSearchParams, allowed: readonly string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!allowed.includes(key) && !seen.has(key)) {
      seen.add(key);
      issues.push({ field: key, message: `property ${key} should not exist` });
    }
  }
  return issues;
}

export function assertKnownQuery(query: URLSearchParams, allowed: readonly string[]): void {
  const issues = unknownQueryIssues(query, allowed);
  if (issues.length > 0) throw validationError(issues);
}

export interface IntRule {
  readonly min: number;
  readonly max?: number;
}

/**
 * Parses an integer field. Returns undefined when absent; pushes an issue (and returns undefined) when
 * present but not an integer in range or given more than once.
 */
export function readInt(value: string | readonly string[] | null | undefined, field: string, rule: IntRule, issues: ValidationIssue[]): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') {
    if (value.length !== 1) {
      issues.push({ field, message: `${field} must be given once` });
      return undefined;
    }
    return readInt(value[0], field, rule, issues);
  }
  const range = rule.max === undefined ? `>= ${rule.min}` : `between ${rule.min} and ${rule.max}`;
  const parsed = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < rule.min || (rule.max !== undefined && parsed > rule.max)) {
    issues.push({ field, message: `${field} must be an integer ${range}` });
    return undefined;
  }
  return parsed;
}

/** A single-valued query integer. */
export function queryInt(query: URLSearchParams, field: string, rule: IntRule, issues: ValidationIssue[]): number | undefined {
  const all = query.getAll(field);
  return readInt(all.length === 0 ? undefined : all, field, rule, issues);
}
