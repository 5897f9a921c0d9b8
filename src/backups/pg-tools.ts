import { execFile, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { BackupError } from './backup.errors.js';

/**
 * `pg_dump` and `pg_restore`, run as programs (an argument array, never a shell) with only the environment they need:
 * PATH from the settings and the password from the URL (passed as PGPASSWORD, so it never shows in a process list).
 */

export type PgTool = 'pg_dump' | 'pg_restore';

interface ToolEnv {
  PATH: string;
}

/** The URL without its password (for `--dbname`), and the environment carrying the password. */
function connection(url: string, env: ToolEnv): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { PATH: env.PATH, ...(password ? { PGPASSWORD: password } : {}) } };
}

export function missingToolMessage(tool: PgTool, path: string, serverMajor?: number): string {
  const v = serverMajor ? String(serverMajor) : '<server major version>';
  return [
    `${tool} was not found on PATH (${path}): a backup or restore of a PostgreSQL server needs the PostgreSQL client tools of the server's major version or newer.`,
    `Install them (Debian/Ubuntu: apt-get install postgresql-client-${v}; Alpine: apk add postgresql${v}-client; macOS: brew install libpq), or set PATH to where they are.`,
    tool === 'pg_dump'
      ? 'Or take the database dump yourself (pg_dump --format=custom --no-owner --no-privileges) and copy the blob store separately.'
      : 'Or restore the archive’s database/postgres.dump yourself with pg_restore --no-owner --no-privileges, then its blobs/ into the blob store.',
  ].join('\n');
}

/** The tool's major version (`pg_dump (PostgreSQL) 15.20` → 15); a clear BackupError when it is not installed. */
export function toolMajorVersion(tool: PgTool, env: ToolEnv, serverMajor?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(tool, ['--version'], { env: { PATH: env.PATH }, timeout: 30_000 }, (err, stdout) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') return reject(new BackupError(missingToolMessage(tool, env.PATH, serverMajor)));
      if (err) return reject(new BackupError(`${tool} --version failed: ${err.message}`));
      const major = /\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1];
      if (!major) return reject(new BackupError(`${tool} --version printed something unexpected: ${stdout.trim().slice(0, 200)}`));
      resolve(Number(major));
    });
  });
}

/** Refuses a tool older than the server: pg_dump would refuse itself, with a message about "server version mismatch". */
export async function checkTool(tool: PgTool, env: ToolEnv, serverMajor: number): Promise<void> {
  const major = await toolMajorVersion(tool, env, serverMajor);
  if (major < serverMajor)
    throw new BackupError(
      `${tool} is version ${major}, older than the PostgreSQL ${serverMajor} server: install postgresql-client-${serverMajor} (or newer) and put it first on PATH.`,
    );
}

/** A running tool: its exit, rejected with the tool's own last lines of stderr when it fails. */
interface RunningTool {
  stdout: Readable;
  stdin: Writable;
  done: Promise<void>;
  kill(): void;
}

function run(tool: PgTool, args: string[], url: string, env: ToolEnv, signal?: AbortSignal): RunningTool {
  const conn = connection(url, env);
  const child = spawn(tool, [...args, `--dbname=${conn.dbname}`], { env: conn.env, stdio: ['pipe', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 8000) stderr += d;
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new BackupError(missingToolMessage(tool, env.PATH)) : err);
    });
    child.once('close', (code, sig) => {
      if (code === 0) return resolve();
      const said = stderr.trim().split('\n').slice(-5).join('\n');
      reject(new BackupError(`${tool} failed (${sig ? `signal ${sig}` : `exit code ${code}`})${said ? `:\n${said}` : ''}`));
    });
  });
  done.catch(() => {});
  return { stdout: child.stdout, stdin: child.stdin, done, kill: () => child.kill('SIGTERM') };
}

/** `pg_dump --format=custom` of the database, reading the exported `snapshot`; the dump comes out of `stdout`. */
export function startPgDump(url: string, snapshot: string, env: ToolEnv, signal?: AbortSignal): RunningTool {
  const tool = run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`], url, env, signal);
  tool.stdin.end();
  return tool;
}

/** `pg_restore` of a custom-format dump written to `stdin`, all or nothing (one transaction, stopping at the first error). */
export function startPgRestore(url: string, env: ToolEnv, signal?: AbortSignal): RunningTool {
  return run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'], url, env, signal);
}
