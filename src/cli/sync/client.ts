import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../common.js';

/** An error answer of the service (`{ error: { code, message, details } }`), kept whole so callers can branch on it. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${message} (${status} ${code})`);
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  server: string;
  token: string;
  workspaceId?: string;
  /** Attempts for a retryable failure (network error, 429, 5xx) before giving up; default 6 (about 30 s in all). */
  maxAttempts?: number;
  /** Stops waits and requests (Ctrl-C). */
  signal?: AbortSignal;
  /** Told about each retry, for the log line. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Per-request timeout; default 60 s. */
  timeoutMs?: number;
}

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s, … capped at 15 s. `Retry-After` wins when the service sends it. */
export function backoffDelay(attempt: number, retryAfterS?: number): number {
  if (retryAfterS !== undefined && Number.isFinite(retryAfterS) && retryAfterS >= 0) return Math.min(retryAfterS * 1000, 60_000);
  const cap = Math.min(15_000, 500 * 2 ** (attempt - 1));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}

function isAbort(err: unknown): boolean {
  return (err as Error)?.name === 'AbortError';
}

/**
 * A small JSON-over-HTTP client for the service: bearer token, `x-workspace-id`, retries with backoff for network
 * failures, 429 and 5xx; other error answers become an ApiError at once.
 */
export class HttpClient {
  readonly server: string;
  private readonly token: string;
  workspaceId?: string;
  private readonly maxAttempts: number;
  private readonly signal?: AbortSignal;
  private readonly onRetry?: ClientOptions['onRetry'];
  private readonly timeoutMs: number;

  constructor(options: ClientOptions) {
    this.server = options.server;
    this.token = options.token;
    this.workspaceId = options.workspaceId;
    this.maxAttempts = options.maxAttempts ?? 6;
    this.signal = options.signal;
    this.onRetry = options.onRetry;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** `path` is under the service's `/api` (e.g. `/v1/users/me`, `/local-sync/sources/deltas`). */
  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = `${this.server}/api${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (this.workspaceId) headers['x-workspace-id'] = this.workspaceId;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      if (this.signal?.aborted) throw new CliError('stopped');
      let reason: string;
      let retryAfter: number | undefined;
      try {
        const signals = [AbortSignal.timeout(this.timeoutMs)];
        if (this.signal) signals.push(this.signal);
        const res = await fetch(url, { method, headers, body: payload, signal: AbortSignal.any(signals) });
        const text = await res.text();
        let json: any;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        if (res.ok) return json as T;
        const error = json?.error ?? {};
        if (!RETRY_STATUSES.has(res.status)) {
          throw new ApiError(res.status, String(error.code ?? 'HTTP_ERROR'), String(error.message ?? res.statusText), error.details ?? {});
        }
        reason = `${res.status} ${error.code ?? res.statusText}`;
        const ra = res.headers.get('retry-after');
        retryAfter = ra ? Number(ra) : undefined;
        if (attempt >= this.maxAttempts)
          throw new ApiError(res.status, String(error.code ?? 'HTTP_ERROR'), String(error.message ?? res.statusText), error.details ?? {});
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (this.signal?.aborted) throw new CliError('stopped');
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        reason = isAbort(err) || (err as Error).name === 'TimeoutError' ? 'timed out' : (cause?.code ?? cause?.message ?? (err as Error).message);
        if (attempt >= this.maxAttempts) throw new CliError(`cannot reach ${this.server}: ${reason}`);
      }
      const delayMs = backoffDelay(attempt, retryAfter);
      this.onRetry?.({ attempt, delayMs, reason });
      try {
        await sleep(delayMs, undefined, { signal: this.signal });
      } catch {
        throw new CliError('stopped');
      }
    }
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }
}
