import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError, toApiError } from './errors';
import type { paths } from './schema';

/**
 * The one API client of the app, typed from the service's own OpenAPI document (`web/src/api/schema.d.ts`, written by
 * `scripts/openapi-types.ts` on every build). The browser authenticates with the HttpOnly session cookie; writes carry
 * the session's CSRF token, which lives only in memory.
 */
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const session: Middleware = {
  onRequest({ request }) {
    if (csrfToken && UNSAFE.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '/', credentials: 'same-origin' });
api.use(session);

/** Unwraps an openapi-fetch result: the `data` envelope on success, an ApiError otherwise. */
export async function call<T>(promise: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof promise>;
  try {
    result = await promise;
  } catch {
    throw toApiError(0, undefined);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}

/** `call` for the common `{ data }` envelope. */
export async function data<T>(promise: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  return (await call(promise)).data;
}

export { ApiError };
