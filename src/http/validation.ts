import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors.js';

type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * The validation mapping of decisions.md: a required field missing → 400 MISSING_REQUIRED; a bad query or
 * path parameter → 400 INVALID_PARAMETER; any other body failure → 422 VALIDATION_ERROR. `details` names the field.
 */
export function validationError(part: HttpPart, issues: z.core.$ZodIssue[], data: unknown): AppError {
  const describe = (i: z.core.$ZodIssue) => ({ field: i.path.map(String).join('.') || part, reason: reasonOf(i, data) });
  const all = issues.map(describe);
  const first = issues[0];
  const { field, reason } = all[0];
  const missing = (first.code === 'invalid_type' || first.code === 'invalid_value') && first.path.length > 0 && valueAt(data, first.path) === undefined;
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  if (missing) return new AppError('MISSING_REQUIRED', `Missing required ${where} "${field}"`, { field, reason: 'required', issues: all });
  const details = { field, reason, ...unknownValues(issues, data), issues: all };
  if (part === 'body') return new AppError('VALIDATION_ERROR', `Invalid ${where} "${field}": ${reason}`, details);
  return new AppError('INVALID_PARAMETER', `Invalid ${where} "${field}": ${reason}`, details);
}

/** An issue in words; a value outside a fixed set is named, with the set (zod's own message names only the set). */
function reasonOf(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code !== 'invalid_value') return issue.message;
  const value = valueAt(data, issue.path);
  if (value === undefined) return issue.message;
  return `unknown value ${JSON.stringify(value)}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/**
 * For a value outside a fixed set: `unknown`, every refused value of that field (each item of a list), and `allowed`,
 * the set, so that a client can show both without parsing the message.
 */
function unknownValues(issues: z.core.$ZodIssue[], data: unknown): { unknown?: unknown[]; allowed?: unknown[] } {
  const first = issues[0];
  if (first.code !== 'invalid_value') return {};
  // The same field: the same path, or items of the same list (paths differing only in their last, numeric, key).
  const fieldOf = (path: PropertyKey[]) => (typeof path.at(-1) === 'number' ? path.slice(0, -1) : path).map(String).join('.');
  const sameField = issues.filter((i) => i.code === 'invalid_value' && fieldOf(i.path) === fieldOf(first.path));
  return { unknown: [...new Set(sameField.map((i) => valueAt(data, i.path)))], allowed: first.values };
}

/** A value met while walking a request part, with how it was reached (the path is rebuilt only for a hit). */
interface Visit {
  value: unknown;
  key: PropertyKey;
  parent: Visit | null;
}

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) path.push(v.key);
  return path.reverse();
}

/**
 * Path of the first string holding a NUL character (PostgreSQL cannot store one), or null. Each value is visited
 * once and carries only a link to its parent, so the walk is linear in the size of the body whatever its depth.
 */
function nulPath(data: unknown): PropertyKey[] | null {
  const stack: Visit[] = [{ value: data, key: '', parent: null }];
  while (stack.length) {
    const visit = stack.pop() as Visit;
    const v = visit.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(visit);
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) stack.push({ value: (v as Record<string, unknown>)[key], key, parent: visit });
    }
  }
  return null;
}

/**
 * A path parameter is an id: one the schema refuses (too long, a NUL character) names nothing, so 404 whatever
 * its shape, never 400.
 */
function paramsNotFound(field: string): AppError {
  return new AppError('NOT_FOUND', `Nothing found for path parameter "${field}"`, { field, reason: 'not_found' });
}

/** Validates each part of a request with its zod schema, returning the parsed (coerced, defaulted) value. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const input = httpPart === 'body' && (data === undefined || data === null) ? {} : data;
    const nul = nulPath(input);
    if (nul) {
      const field = nul.map(String).join('.') || String(httpPart);
      if (httpPart === 'params') return { error: paramsNotFound(field) };
      const reason = 'must not contain NUL characters';
      const code = httpPart === 'body' ? 'VALIDATION_ERROR' : 'INVALID_PARAMETER';
      return { error: new AppError(code, `Invalid ${httpPart === 'body' ? 'field' : 'parameter'} "${field}": ${reason}`, { field, reason }) };
    }
    const result = schema.safeParse(input);
    if (!result.success && httpPart === 'params' && result.error.issues.every((i) => i.code === 'too_big' && i.origin === 'string'))
      return { error: paramsNotFound(result.error.issues[0].path.map(String).join('.') || 'params') };
    if (result.success) return { value: result.data };
    return { error: validationError((httpPart ?? 'body') as HttpPart, result.error.issues, input) };
  };
