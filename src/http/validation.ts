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
  const describe = (i: z.core.$ZodIssue) => ({ field: i.path.map(String).join('.') || part, reason: i.message });
  const all = issues.map(describe);
  const first = issues[0];
  const { field, reason } = all[0];
  const missing = first.code === 'invalid_type' && first.path.length > 0 && valueAt(data, first.path) === undefined;
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  if (missing) return new AppError('MISSING_REQUIRED', `Missing required ${where} "${field}"`, { field, reason: 'required', issues: all });
  if (part === 'body') return new AppError('VALIDATION_ERROR', `Invalid ${where} "${field}": ${reason}`, { field, reason, issues: all });
  return new AppError('INVALID_PARAMETER', `Invalid ${where} "${field}": ${reason}`, { field, reason, issues: all });
}

/** Validates each part of a request with its zod schema, returning the parsed (coerced, defaulted) value. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const input = httpPart === 'body' && (data === undefined || data === null) ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: validationError((httpPart ?? 'body') as HttpPart, result.error.issues, input) };
  };
