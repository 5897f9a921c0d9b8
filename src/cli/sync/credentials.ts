import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../common.js';

/** What `kb login` stores: where the service is and the bearer credential to use (a JWT or an API key). */
export interface Credentials {
  server: string;
  token: string;
  kind: 'jwt' | 'api-key';
  /** Who the token belongs to, for messages. */
  user?: { id: string; email: string; name?: string };
  /** JWTs expire; `null` for API keys. */
  expiresAt?: string | null;
  savedAt: string;
}

/**
 * The directory of the connector's configuration: `KB_CONFIG_DIR`, else `$XDG_CONFIG_HOME/kb`, else `~/.config/kb`.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KB_CONFIG_DIR) return path.resolve(env.KB_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(path.resolve(env.XDG_CONFIG_HOME), 'kb');
  return path.join(os.homedir(), '.config', 'kb');
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'config.json');
}

/** Normalises a server address: `http(s)://host[:port][/prefix]`, no trailing slash, no `/api` suffix. */
export function normaliseServerUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CliError(`--server: not a URL: ${input} (expected e.g. http://127.0.0.1:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--server: only http and https URLs are supported, not ${url.protocol}`);
  if (url.username || url.password) throw new CliError('--server: put the credential in --token, not in the URL');
  let pathname = url.pathname.replace(/\/+$/, '');
  if (pathname.endsWith('/api')) pathname = pathname.slice(0, -4);
  return `${url.origin}${pathname}`;
}

/** Writes the credentials with mode 0600 (directory 0700), atomically (temp file + rename). */
export async function saveCredentials(creds: Credentials, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = credentialsPath(env);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return file;
}

/**
 * The stored credentials, or those from `KB_SERVER` + `KB_TOKEN` in the environment (which win, for cron and CI).
 * Throws a CliError telling the user to log in when there are none.
 */
export async function loadCredentials(env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  if (env.KB_SERVER && env.KB_TOKEN) {
    return { server: normaliseServerUrl(env.KB_SERVER), token: env.KB_TOKEN, kind: env.KB_TOKEN.startsWith('ey') ? 'jwt' : 'api-key', savedAt: '' };
  }
  const file = credentialsPath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError('not logged in: run `kb login --server URL --email EMAIL` (or --token KEY) first');
    throw err;
  }
  let parsed: Credentials;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON: run \`kb login\` again`);
  }
  if (typeof parsed?.server !== 'string' || typeof parsed?.token !== 'string') throw new CliError(`${file} has no server or token: run \`kb login\` again`);
  if (parsed.expiresAt && Date.parse(parsed.expiresAt) < Date.now())
    throw new CliError(`the login token expired at ${parsed.expiresAt}: run \`kb login\` again (or use an API key with --token)`);
  return parsed;
}
