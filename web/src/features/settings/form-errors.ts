import { ApiError } from '../../api/errors';

/**
 * Field-level messages of an API error, keyed by field path (`name`, `settings.defaultRole`). The service answers
 * validation problems as `details: { field, reason, issues: [{ field, reason }] }` (src/http/validation.ts) and
 * its own rule failures as `details: { field, reason }`; both land here so a form can put each under its field.
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  return err instanceof ApiError ? err.fieldErrors() : {};
}

/** The error left to show above a form once its fields have taken theirs (null when every problem has a field). */
export function formLevelError(err: unknown, fields: readonly string[]): unknown {
  if (!err) return null;
  const byField = fieldErrorsOf(err);
  return fields.some((f) => byField[f]) ? null : err;
}
