/** The service's errors: a stable code from the interface's table and its HTTP status. */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'TOKEN_EXPIRED'
  | 'VALIDATION_ERROR'
  | 'INVALID_PARAMETER'
  | 'MISSING_REQUIRED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'DELETED'
  | 'PRECONDITION_FAILED'
  | 'RANGE_NOT_SATISFIABLE'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const STATUS_OF: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TOKEN_EXPIRED: 401,
  VALIDATION_ERROR: 422,
  INVALID_PARAMETER: 400,
  MISSING_REQUIRED: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  DELETED: 410,
  PRECONDITION_FAILED: 412,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    /** Overrides the code's usual status (413 for a body over the limit, which the table has no code of its own for). */
    status?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status ?? STATUS_OF[code];
  }
}

export const unauthorized = (message = 'Missing or invalid credentials') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do this', details?: ErrorDetails) => new AppError('FORBIDDEN', message, details);
export const notFound = (resource: string, id?: string) =>
  new AppError('NOT_FOUND', `${resource} not found`, id === undefined ? { resource } : { resource, id });
export const alreadyExists = (message: string, field?: string) => new AppError('ALREADY_EXISTS', message, field ? { field, reason: 'taken' } : {});
export const validation = (field: string, reason: string, message?: string) =>
  new AppError('VALIDATION_ERROR', message ?? `${field}: ${reason}`, { field, reason });
export const missingRequired = (field: string, message?: string) =>
  new AppError('MISSING_REQUIRED', message ?? `${field} is required`, { field, reason: 'required' });
export const invalidParameter = (field: string, reason: string) => new AppError('INVALID_PARAMETER', `${field}: ${reason}`, { field, reason });
export const gone = (resource: string, id: string) => new AppError('DELETED', `${resource} has been deleted`, { resource, id });

/** What a read-only API key gets for a write, through REST or an MCP tool. */
export function readOnlyKeyRefusal(): AppError {
  return new AppError('FORBIDDEN', 'This API key is read-only: it cannot change anything', { reason: 'read_only_key' });
}
