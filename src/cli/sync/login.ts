import type { Command } from 'commander';
import { CliError } from '../common.js';
import { askHidden, readStdin } from '../password.js';
import { ApiError, HttpClient } from './client.js';
import { type Credentials, normaliseServerUrl, saveCredentials } from './credentials.js';

interface LoginOptions {
  server: string;
  token?: string;
  email?: string;
  passwordStdin?: boolean;
}

async function readStdinLine(): Promise<string> {
  return (await readStdin()).split(/\r?\n/, 1)[0] ?? '';
}

function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

export async function login(opts: LoginOptions): Promise<{ file: string; creds: Credentials }> {
  const server = normaliseServerUrl(opts.server);
  if (!opts.token === !opts.email) throw new CliError('give either --token (a JWT or an API key) or --email (the password is asked, or read from stdin)');
  let creds: Credentials;
  if (opts.token) {
    const token = opts.token.trim();
    const client = new HttpClient({ server, token, maxAttempts: 3 });
    let me: { data: { id: string; email: string; name?: string } };
    try {
      me = await client.get('/v1/users/me');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw new CliError(`the service refused the token: ${err.message}`);
      throw err;
    }
    creds = {
      server,
      token,
      kind: looksLikeJwt(token) ? 'jwt' : 'api-key',
      user: { id: me.data.id, email: me.data.email, name: me.data.name },
      expiresAt: null,
      savedAt: new Date().toISOString(),
    };
  } else {
    const password = opts.passwordStdin || !process.stdin.isTTY ? await readStdinLine() : await askHidden(`Password for ${opts.email}: `);
    if (!password) throw new CliError('no password given (pipe it on stdin, or run on a terminal to be asked)');
    const client = new HttpClient({ server, token: '', maxAttempts: 3 });
    let res: { data: { user: { id: string; email: string; name?: string }; token: string; expiresAt?: string } };
    try {
      res = await client.post('/v1/auth/login', { email: opts.email, password });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw new CliError('wrong email or password');
      throw err;
    }
    creds = {
      server,
      token: res.data.token,
      kind: 'jwt',
      user: { id: res.data.user.id, email: res.data.user.email, name: res.data.user.name },
      expiresAt: res.data.expiresAt ?? null,
      savedAt: new Date().toISOString(),
    };
  }
  const file = await saveCredentials(creds);
  return { file, creds };
}

export function registerLogin(program: Command) {
  program
    .command('login')
    .description('Store the address of a kb service and a credential for `kb sync` (in ~/.config/kb/config.json, mode 0600)')
    .requiredOption('--server <url>', 'the service, e.g. http://127.0.0.1:3000')
    .option('--token <token>', 'an API key (or a JWT) to use as it is')
    .option('--email <email>', 'log in with this account; the password is asked without echo, or read from stdin')
    .option('--password-stdin', 'read the password from the first line of stdin (also the default when stdin is not a terminal)')
    .addHelpText(
      'after',
      [
        '',
        'The file lives in $KB_CONFIG_DIR, else $XDG_CONFIG_HOME/kb, else ~/.config/kb.',
        'KB_SERVER and KB_TOKEN in the environment override it (for cron and CI).',
        '',
        'Examples:',
        '  kb login --server https://kb.example.com --email me@example.com',
        '  kb login --server http://127.0.0.1:3000 --token "$KB_API_KEY"',
      ].join('\n'),
    )
    .action(async (opts: LoginOptions) => {
      const { file, creds } = await login(opts);
      const who = creds.user ? ` as ${creds.user.email}` : '';
      const until = creds.expiresAt ? ` (token valid until ${creds.expiresAt})` : '';
      console.log(`Logged in to ${creds.server}${who}${until}; saved in ${file}`);
    });
}
