import type { Command } from 'commander';
import { ApiKeyCreateBody, Email } from '../../areas/auth/auth.schema.js';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { CliError, cliConfig, parseOption } from '../common.js';

const HOURS = { h: 1, d: 24, w: 24 * 7 } as const;

/**
 * `--expires`: a duration from now (`12h`, `30d`, `8w`) or an ISO 8601 date or date-time (a date alone is midnight
 * UTC). Answers the ISO date-time the API takes; whether it is in the future is the service's rule.
 */
export function parseExpiry(value: string, now = new Date()): string {
  const text = value.trim();
  const duration = /^(\d{1,5})([hdw])$/.exec(text);
  if (duration && Number(duration[1]) > 0) {
    const hours = Number(duration[1]) * HOURS[duration[2] as keyof typeof HOURS];
    return new Date(now.getTime() + hours * 3_600_000).toISOString();
  }
  const date = /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(text) ? new Date(text) : null;
  if (date && !Number.isNaN(date.getTime())) return date.toISOString();
  throw new CliError(`--expires: expected a duration like 30d, 12h or 8w, or an ISO date like 2027-01-31 or 2027-01-31T12:00:00Z (got "${value}")`);
}

interface CreateOptions {
  email: string;
  name: string;
  readOnly?: boolean;
  workspace?: string;
  expires?: string;
}

export function registerKey(program: Command) {
  const key = program.command('key').description('Manage API keys');
  key
    .command('create')
    .description('Create an API key for a user and print it: the key is shown once and is the only output on stdout')
    .requiredOption('--email <email>', 'email of the user who will own the key')
    .requiredOption('--name <name>', 'a label to recognise the key by')
    .option('--read-only', 'the key reads only: every write is refused (403), through REST and MCP')
    .option('--workspace <id or hostname>', 'limit the key to this workspace (the user must be a member); default: all their workspaces')
    .option('--expires <date or duration>', 'when the key stops working: an ISO date (2027-01-31) or a duration like 30d, 12h, 8w; default: never')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  KB_API_KEY=$(kb key create --email admin@example.com --name deploy-bot)',
        '  kb key create --email me@example.com --name agent --read-only --workspace acme --expires 30d',
      ].join('\n'),
    )
    .action(async (opts: CreateOptions) => {
      const email = parseOption(Email, opts.email, '--email');
      const { name } = parseOption(ApiKeyCreateBody, { name: opts.name }, '--name');
      const expiresAt = opts.expires === undefined ? undefined : parseExpiry(opts.expires);
      const config = cliConfig();
      const { cliCtx, withDatabase } = await import('../database.js');
      const { createApiKey } = await import('../../areas/auth/auth.service.js');
      const created = await withDatabase(config, async (database) => {
        const owner = await findOwner(database.db, email);
        const workspace = opts.workspace === undefined ? undefined : await findWorkspace(database.db, opts.workspace);
        const input = { name, access: opts.readOnly ? ('read-only' as const) : ('read-write' as const), expiresAt, workspaceId: workspace?.id };
        try {
          return await createApiKey(cliCtx(config, database), input, owner.id);
        } catch (err) {
          if (workspace && err instanceof AppError && err.code === 'FORBIDDEN')
            throw new CliError(`${email} is not a member of workspace ${workspace.hostname}`);
          throw err;
        }
      });
      console.log(created.key);
    });

  key
    .command('list')
    .description("List a user's active API keys with their scope (never the secrets)")
    .requiredOption('--email <email>', 'email of the user whose keys to list')
    .option('--json', 'print the keys as JSON (as GET /v1/api-keys answers them)')
    .action(async (opts: { email: string; json?: boolean }) => {
      const email = parseOption(Email, opts.email, '--email');
      const config = cliConfig();
      const { cliCtx, withDatabase } = await import('../database.js');
      const { listApiKeys } = await import('../../areas/auth/auth.service.js');
      const keys = await withDatabase(config, async (database) => listApiKeys(cliCtx(config, database), (await findOwner(database.db, email)).id));
      if (opts.json) console.log(JSON.stringify(keys, null, 2));
      else console.log(keyTable(keys));
    });
}

async function findOwner(db: Db, email: string) {
  const { usersRepo } = await import('../../areas/users/users.repo.js');
  const owner = await usersRepo.findByEmail(db, email);
  if (!owner) throw new CliError(`no user with email ${email}`);
  return owner;
}

async function findWorkspace(db: Db, idOrHostname: string) {
  const { workspacesRepo } = await import('../../areas/workspaces/workspaces.repo.js');
  const workspace = await workspacesRepo.findByIdOrHostname(db, idOrHostname.trim());
  if (!workspace) throw new CliError(`--workspace: no workspace with id or hostname ${idOrHostname}`);
  return workspace;
}

interface ListedKey {
  id: string;
  name: string;
  prefix: string;
  access: string;
  workspaceId: string | null;
  workspaceName: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** A plain aligned table, one key a line; "all" for a key not limited to one workspace. */
export function keyTable(keys: ListedKey[]): string {
  if (!keys.length) return 'no active API keys';
  const rows = [
    ['ID', 'NAME', 'PREFIX', 'ACCESS', 'WORKSPACE', 'EXPIRES', 'LAST USED'],
    ...keys.map((k) => [
      k.id,
      k.name,
      k.prefix,
      k.access,
      k.workspaceId ? `${k.workspaceName ?? ''} (${k.workspaceId})` : 'all',
      k.expiresAt ?? 'never',
      k.lastUsedAt ?? 'never',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
