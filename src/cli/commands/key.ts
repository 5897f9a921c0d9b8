import type { Command } from 'commander';
import { ApiKeyCreateBody, Email } from '../../areas/auth/auth.schema.js';
import { CliError, cliConfig, parseOption } from '../common.js';

export function registerKey(program: Command) {
  const key = program.command('key').description('Manage API keys');
  key
    .command('create')
    .description('Create an API key for a user and print it: the key is shown once and is the only output on stdout')
    .requiredOption('--email <email>', 'email of the user who will own the key')
    .requiredOption('--name <name>', 'a label to recognise the key by')
    .addHelpText('after', '\nExample:\n  KB_API_KEY=$(kb key create --email admin@example.com --name deploy-bot)')
    .action(async (opts: { email: string; name: string }) => {
      const email = parseOption(Email, opts.email, '--email');
      const { name } = parseOption(ApiKeyCreateBody, { name: opts.name }, '--name');
      const config = cliConfig();
      const { cliCtx, withDatabase } = await import('../database.js');
      const { createApiKey } = await import('../../areas/auth/auth.service.js');
      const { usersRepo } = await import('../../areas/users/users.repo.js');
      const created = await withDatabase(config, async (database) => {
        const owner = await usersRepo.findByEmail(database.db, email);
        if (!owner) throw new CliError(`no user with email ${email}`);
        return createApiKey(cliCtx(config, database), { name }, owner.id);
      });
      console.log(created.key);
    });
}
