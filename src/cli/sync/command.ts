import { type Command, InvalidArgumentError, Option } from 'commander';
import { registerLogin } from './login.js';

/**
 * `kb login` and `kb sync …`: the connector that keeps a local folder in step with a local-sync source of the service.
 * The modules behind the actions are imported inside them, so `kb --help` stays fast.
 */

const KEPT = { local: 'kept the local file', service: 'kept the service version', merge: 'merged both versions' } as const;

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
        'NAME.service-conflict.EXT; see both with `kb sync diff DIR PATH`, settle it with',
        '`kb sync resolve DIR PATH --keep local|service|merge`.',
        '',
        'Subcommands: kb sync status DIR | kb sync conflicts DIR | kb sync diff DIR PATH |',
        '             kb sync resolve DIR PATH --keep local|service|merge | kb sync history DIR PATH',
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
      console.log(`\nSee one with: kb sync diff ${dir} PATH; settle it with: kb sync resolve ${dir} PATH --keep local|service|merge`);
    });

  sync
    .command('diff')
    .description('Show the open conflict on a path three ways (base, local, service), hunk by hunk, and whether it merges cleanly')
    .argument('<dir>', 'a synced folder')
    .argument('<path>', 'the file (relative to the folder, or a path to it; its side file works too)')
    .option('--json', 'print the service’s preview as JSON (with the proposed merge)')
    .action(async (dir: string, file: string, opts: { json?: boolean }) => {
      const { previewConflict } = await import('./conflicts.js');
      const { formatPreview } = await import('./inspect.js');
      const preview = await previewConflict(dir, file);
      console.log(opts.json ? JSON.stringify(preview, null, 2) : formatPreview(preview));
    });

  sync
    .command('history')
    .description('List the versions of a file that the service keeps, newest first')
    .argument('<dir>', 'a synced folder')
    .argument('<path>', 'the file (relative to the folder, or a path to it)')
    .option('--limit <n>', 'how many versions', positiveNumber(1), 20)
    .option('--json', 'print them as JSON')
    .action(async (dir: string, file: string, opts: { limit: number; json?: boolean }) => {
      const { fileHistory, formatHistory } = await import('./inspect.js');
      const history = await fileHistory(dir, file, Math.min(1000, Math.floor(opts.limit)));
      console.log(opts.json ? JSON.stringify(history, null, 2) : formatHistory(history));
    });

  sync
    .command('resolve')
    .description('Resolve the open conflict on a path: keep the local file, the service’s version, or merge both (when no change clashes)')
    .argument('<dir>', 'a synced folder')
    .argument('<path>', 'the file (relative to the folder, or a path to it; its side file works too)')
    .addOption(
      new Option('--keep <side>', 'which version wins: local, service, or merge (the automatic three-way merge)')
        .choices(['local', 'service', 'merge'])
        .makeOptionMandatory(),
    )
    .action(async (dir: string, file: string, opts: { keep: 'local' | 'service' | 'merge' }) => {
      const { resolveConflict } = await import('./conflicts.js');
      const result = await resolveConflict(dir, file, opts.keep);
      console.log(`resolved ${result.rel}: ${KEPT[opts.keep]}${result.already ? ' (it was already resolved on the service)' : ''}`);
    });
}
