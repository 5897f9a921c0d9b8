import type { Command } from 'commander';
import { cliConfig } from '../common.js';

export function registerServe(program: Command) {
  program
    .command('serve')
    .description('Start the HTTP API (same as `npm start`): migrates the database, listens, stops cleanly on SIGINT/SIGTERM')
    .option('--host <host>', 'address to listen on (overrides HOST)')
    .option('--port <port>', 'port to listen on (overrides PORT)')
    .addHelpText('after', '\nSettings come from the environment: HOST, PORT, DATA_DIR, DATABASE_URL, REDIS_URL, JWT_SECRET, LOG_LEVEL, ... (see README.md).')
    .action(async (opts: { host?: string; port?: string }) => {
      const config = cliConfig({ HOST: opts.host, PORT: opts.port });
      const { serve } = await import('../../server.js');
      await serve(config);
    });
}
