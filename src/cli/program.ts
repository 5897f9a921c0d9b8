import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerBackup } from './commands/backup.js';
import { registerExport } from './commands/export.js';
import { registerImport } from './commands/import.js';
import { registerKey } from './commands/key.js';
import { registerMigrate } from './commands/migrate.js';
import { registerServe } from './commands/serve.js';
import { registerStorage } from './commands/storage.js';
import { registerUser } from './commands/user.js';
import { registerWorker } from './commands/worker.js';
import { registerSync } from './sync/command.js';

/** Each subcommand group lives in `commands/<group>.ts` and exports `register<Group>(program)`; add new groups here. */
const COMMANDS: Array<(program: Command) => void> = [
  registerServe,
  registerMigrate,
  registerUser,
  registerKey,
  registerWorker,
  registerSync,
  registerExport,
  registerImport,
  registerStorage,
  registerBackup,
];

function packageVersion(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

export function buildProgram(): Command {
  const program = new Command('kb')
    .description('Team knowledge base and task manager: run the service and administer it from the shell')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nSettings come from the same environment variables as the service (DATA_DIR, DATABASE_URL, ...).');
  for (const register of COMMANDS) register(program);
  return program;
}
