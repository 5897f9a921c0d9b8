import path from 'node:path';
import type { z } from 'zod';
import { type Config, loadConfig } from '../config.js';
import { AppError } from '../errors.js';

/**
 * Helpers every subcommand may use. Kept light (no database, no Fastify): heavy modules are imported inside the
 * actions, so `kb --help` and input errors answer fast.
 */

/** A failure the operator can act on: printed as `error: <message>` on stderr, exit code 1, no stack trace. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The service's settings, from the same environment variables as `npm start` (`env` adds command-line overrides). */
export function cliConfig(env: Record<string, string | undefined> = {}): Config {
  try {
    return loadConfig({ ...process.env, ...env });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** Where the configured database lives, for messages (never prints a password in a URL). */
export function describeDatabase(config: Config): string {
  if (!config.DATABASE_URL) return `PGlite in ${path.resolve(config.DATA_DIR, 'pgdata')}`;
  try {
    const url = new URL(config.DATABASE_URL);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/** Validates one option with the same zod schema the HTTP API uses; a failure names the option. */
export function parseOption<S extends z.ZodType>(schema: S, value: unknown, option: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const reason = result.error.issues[0]?.message ?? 'invalid value';
  throw new CliError(`${option}: ${reason}`);
}

/** The one-line message of an error the operator should see; `null` for an unexpected one (printed with its stack). */
export function operatorMessage(err: unknown): string | null {
  if (err instanceof CliError) return err.message;
  if (err instanceof AppError) return err.message;
  const code = (err as { code?: string })?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000')
    return `cannot reach the database: ${(err as Error).message || code}`;
  return null;
}
