import { HttpClient } from '../sync/client.js';
import { type Credentials, loadCredentials } from '../sync/credentials.js';
import { createReporter, type Reporter } from '../sync/progress.js';

/** What a command driving one of the service's jobs (an export, an import) works with. */
export interface JobSession {
  creds: Credentials;
  reporter: Reporter;
  http: HttpClient;
  signal: AbortSignal;
}

/**
 * Runs `work` with the `kb login` credentials, a progress reporter and an HTTP client that retries passing failures.
 * Ctrl-C (or SIGTERM) aborts it: the result is then null and the exit code 130 (the job on the server keeps running).
 */
export async function withJobSession<T>(workspaceId: string, work: (session: JobSession) => Promise<T>): Promise<T | null> {
  const creds = await loadCredentials();
  const reporter = createReporter();
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const http = new HttpClient({
    server: creds.server,
    token: creds.token,
    workspaceId,
    signal: controller.signal,
    onRetry: ({ attempt, delayMs, reason }) => reporter.warn(`${reason}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)}s`),
  });
  try {
    return await work({ creds, reporter, http, signal: controller.signal });
  } catch (err) {
    reporter.finish();
    if (controller.signal.aborted) {
      reporter.info('stopped');
      process.exitCode = 130;
      return null;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
