import type { Command } from 'commander';
import { cliConfig, describeDatabase } from '../common.js';

export function registerMigrate(program: Command) {
  program
    .command('migrate')
    .description('Bring the configured database up to date and print the migrations that ran')
    .addHelpText('after', '\nThe database is DATABASE_URL when set, else the embedded PGlite under DATA_DIR. The service also migrates at start.')
    .action(async () => {
      const config = cliConfig();
      const { withDatabase } = await import('../database.js');
      const { migrateToLatest } = await import('../../db/index.js');
      const applied = await withDatabase(config, (database) => migrateToLatest(database.db), { migrate: false });
      const where = describeDatabase(config);
      if (applied.length === 0) console.log(`${where}: already up to date, no migrations to run`);
      else {
        console.log(`${where}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}`);
        for (const name of applied) console.log(`  ${name}`);
      }
    });
}
