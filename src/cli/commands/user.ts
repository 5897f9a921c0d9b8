import type { Command } from 'commander';
import { Email, Password } from '../../areas/auth/auth.schema.js';
import { Name } from '../../schema.js';
import { cliConfig, parseOption } from '../common.js';
import { readPassword } from '../password.js';

export function registerUser(program: Command) {
  const user = program.command('user').description('Manage user accounts');
  user
    .command('create')
    .description('Create a user account and print its id (the only output on stdout); its email counts as verified (the operator vouches for it)')
    .requiredOption('--email <email>', 'the login email (unique)')
    .requiredOption('--name <name>', 'display name')
    .option('--password-stdin', 'read the password from the first line of stdin (also the default when stdin is not a terminal)')
    .addHelpText(
      'after',
      [
        '',
        'On a terminal the password is asked twice without echo; piped in, the first line of stdin is used.',
        'Passwords need 8+ characters.',
        '',
        'Example:',
        '  printf %s "$ADMIN_PASSWORD" | kb user create --email admin@example.com --name Admin --password-stdin',
      ].join('\n'),
    )
    .action(async (opts: { email: string; name: string; passwordStdin?: boolean }) => {
      const email = parseOption(Email, opts.email, '--email');
      const name = parseOption(Name, opts.name, '--name');
      const config = cliConfig();
      const password = parseOption(Password, await readPassword({ fromStdin: opts.passwordStdin === true }), 'password');
      const { withDatabase } = await import('../database.js');
      const { createUser } = await import('../../areas/auth/auth.service.js');
      const created = await withDatabase(config, (database) => createUser(database.db, { email, name, password, emailVerifiedAt: new Date() }));
      console.log(created.id);
    });
}
