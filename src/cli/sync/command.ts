import { type Command, InvalidArgumentError, Option } from 'commander';
import { registerLogin } from './login.js';

/**
 * `kb login` and `kb sync …`: the connector that keeps a local folder in step with a local-sync source of the service.
 * The modules behind the actions are imported inside them, so `kb --help` stays fast.
 */

const collect = (value: string, previous: string[] = []) => [...previous, value];

function positiveNumber(min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new InvalidArgumentError(`a number of at least ${min}`);
    return n;
  };
}

export function registerSync(program: Command) {
  registerLogin(program);

  const sync = program
    .command('sync')
    .description('Keep a local folder in step with a local-sync source of the service (run `kb login` first)')
    .argument('<dir>', 'the folder to sync (created when missing); its state lives in <dir>/.kb-sync/')
    .option('--workspace <workspace>', 'workspace id, hostname or name (required the first time)')
    .option('--source <name>', 'source name: reused when it exists, else created (default: the folder name)')
    .addOption(
      new Option('--mode <mode>', 'for a new source: bidirectional, push_only (folder → service) or pull_only (service → folder)').choices([
        'bidirectional',
        'push_only',
        'pull_only',
      ]),
    )
    .option('--include <glob>', 'for a new source: only paths matching this glob (repeatable)', collect)
    .option('--exclude <glob>', 'for a new source: leave out paths matching this glob (repeatable)', collect)
    .option('--once', 'one full cycle (scan, push, pull), then exit: for scripts and cron')
    .option('--interval <seconds>', 'seconds between polls for service changes', positiveNumber(0.2), 3)
    .option('--debounce <ms>', 'quiet time after a file event before pushing', positiveNumber(0), 300)
    .addHelpText(
      'after',
      [
        '',
        'The first run pushes the whole folder (batches of up to 500 files, a progress bar on a terminal), then watches',
        'it: changes are pushed after a short quiet time and service changes are pulled every few seconds.',
        'A file changed on both sides is never overwritten: the service version is written beside it as',
        'NAME.service-conflict.EXT; settle it with `kb sync resolve DIR PATH --keep local|service`.',
        '',
        'Subcommands: kb sync status DIR | kb sync conflicts DIR | kb sync resolve DIR PATH --keep local|service',
        '',
        'Examples:',
        '  kb sync ~/notes --workspace acme --source notes',
        '  kb sync ~/notes --once            # from cron',
      ].join('\n'),
    )
    .action(async (dir: string, opts) => {
      const { runSync } = await import('./runner.js');
      await runSync(dir, opts);
    });

  sync
    .command('status')
    .description('Show the source, local changes not yet pushed, service changes not yet pulled, open conflicts and the last sync time')
    .argument('<dir>', 'a synced folder')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { folderStatus, formatStatus } = await import('./status.js');
      const report = await folderStatus(dir);
      console.log(opts.json ? JSON.stringify(report, null, 2) : formatStatus(report));
    });

  sync
    .command('conflicts')
    .description('List the open conflicts of the folder’s source')
    .argument('<dir>', 'a synced folder')
    .option('--json', 'print them as JSON')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { listConflicts } = await import('./conflicts.js');
      const { rows } = await listConflicts(dir);
      if (opts.json) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        console.log('No open conflicts.');
        return;
      }
      for (const r of rows) {
        const side = r.sidePath ? `service version in ${r.sidePath}` : r.here ? 'service side deleted' : 'met by another connector';
        console.log(`${r.relativePath}  (${side}; since ${r.createdAt}; conflict ${r.conflictId})`);
      }
      console.log(`\nSettle one with: kb sync resolve ${dir} PATH --keep local|service`);
    });

  sync
    .command('resolve')
    .description('Resolve the open conflict on a path: keep the local file or the service’s version')
    .argument('<dir>', 'a synced folder')
    .argument('<path>', 'the file (relative to the folder, or a path to it; its side file works too)')
    .addOption(new Option('--keep <side>', 'which version wins').choices(['local', 'service']).makeOptionMandatory())
    .action(async (dir: string, file: string, opts: { keep: 'local' | 'service' }) => {
      const { resolveConflict } = await import('./conflicts.js');
      const result = await resolveConflict(dir, file, opts.keep);
      console.log(
        `resolved ${result.rel}: kept the ${opts.keep === 'local' ? 'local file' : 'service version'}${result.already ? ' (it was already resolved on the service)' : ''}`,
      );
    });
}
