/** An error the API answered in its error shape `{ error: { code, message, details } }`, or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * Field-level problems of a 422, keyed by field, for forms: the API sends `details.issues[] = { field, reason }`,
   * or one `details = { field, reason }` (then the whole message is shown, since it says what to do).
   */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    const d = this.details as { field?: unknown; reason?: unknown; issues?: { field?: unknown; reason?: unknown }[] } | undefined;
    for (const issue of d?.issues ?? [])
      if (typeof issue.field === 'string' && typeof issue.reason === 'string' && !out[issue.field]) out[issue.field] = issue.reason;
    if (typeof d?.field === 'string' && !d.issues?.length && !out[d.field]) out[d.field] = this.message;
    return out;
  }
}

/** Reads an error body into an ApiError with a message a person can act on. */
export function toApiError(status: number, body: unknown): ApiError {
  const e = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  if (e?.message) return new ApiError(status, e.code ?? 'ERROR', e.message, e.details);
  if (status === 0) return new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.');
  return new ApiError(status, 'ERROR', `The service answered ${status}.`);
}

/** The message to show for anything thrown by a query or mutation. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return 'Something went wrong.';
}
