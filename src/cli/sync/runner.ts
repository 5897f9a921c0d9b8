import { CliError } from '../common.js';
import { ApiError } from './client.js';
import { createReporter, type Reporter } from './progress.js';
import { PausedError, type PushSummary, pushChanges } from './pusher.js';
import { type PullSummary, pullDeltas } from './puller.js';
import { resolveRoot, type SetupOptions, type SyncContext, setupFolder } from './session.js';
import { runLock, withState } from './state.js';
import { watchFolder } from './watcher.js';

export interface RunOptions extends SetupOptions {
  once?: boolean;
  /** Seconds between delta polls (watch mode). */
  interval: number;
  /** Milliseconds of quiet after a file event before pushing. */
  debounce: number;
}

export interface CycleSummary {
  push: PushSummary;
  pull: PullSummary;
}

let pausedWarned = false;

/** One sync cycle under the state lock: push local changes (all, or the `paths` the watcher saw), then pull deltas. */
export async function syncCycle(ctx: SyncContext, paths?: Iterable<string>): Promise<CycleSummary> {
  return withState(ctx.root, async (state, save) => {
    let push: PushSummary = { applied: 0, unchanged: 0, conflicts: 0, rejected: 0, bytes: 0 };
    try {
      push = await pushChanges(ctx, state, save, paths);
      pausedWarned = false;
    } catch (err) {
      if (!(err instanceof PausedError)) throw err;
      if (!pausedWarned) ctx.reporter.warn(err.message);
      pausedWarned = true;
    }
    const pull = await pullDeltas(ctx, state, save);
    state.lastSyncAt = new Date().toISOString();
    return { push, pull };
  });
}

/** True for failures a later cycle cannot fix (bad credentials, no access, the source gone). */
function isFatal(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || (err.status === 403 && err.details.reason !== 'source_paused') || err.status === 404);
}

function describe(summary: CycleSummary): string {
  const { push, pull } = summary;
  const parts = [`pushed ${push.applied}`];
  if (push.conflicts) parts.push(`${push.conflicts} conflict${push.conflicts === 1 ? '' : 's'}`);
  if (push.rejected) parts.push(`${push.rejected} refused`);
  parts.push(`pulled ${pull.written} written, ${pull.deleted} deleted`);
  return parts.join(', ');
}

/**
 * `kb sync DIR`: one process per folder (a run lock in `.kb-sync/`). Sets the folder up, runs a first full cycle
 * (with a progress bar), then (unless `--once`) watches the folder, pushes changes after a short quiet time, polls
 * deltas every `interval` seconds, rescans everything every minute and sends heartbeats. Ctrl-C (or SIGTERM) stops
 * after the step in progress; a second Ctrl-C exits at once.
 */
export async function runSync(dir: string, opts: RunOptions, reporter: Reporter = createReporter()): Promise<void> {
  const root = await resolveRoot(dir, true);
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    reporter.info('stopping (Ctrl-C again to exit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const lock = runLock(root);
  const holder = await lock.tryAcquire();
  if (holder !== null) throw new CliError(`another kb sync (process ${holder}) is syncing ${root}`);
  try {
    const { ctx, source, connectorId } = await setupFolder(root, opts, { signal: controller.signal, reporter });
    if (source.paused) reporter.warn(`source ${source.name} is paused: local changes wait until it is resumed`);
    const startedAt = Date.now();
    const first = await syncCycle(ctx);
    const secs = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(`${new Date().toISOString()} synced ${root} with ${source.name} in ${secs}s: ${describe(first)}`);
    if (opts.once) return;
    reporter.info(`watching ${root} (polling every ${opts.interval}s; Ctrl-C to stop)`);
    await watchLoop(ctx, connectorId, opts, controller.signal);
    if (controller.signal.aborted) reporter.info('stopped');
  } catch (err) {
    if (controller.signal.aborted) {
      // interrupted mid-step: what was done is saved; a --once run did not finish, so it says so in its exit code
      reporter.info('stopped');
      if (opts.once) process.exitCode = 130;
      return;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await lock.release();
  }
}

const FULL_SCAN_EVERY_MS = 60_000;
const HEARTBEAT_EVERY_MS = 60_000;

async function watchLoop(ctx: SyncContext, connectorId: string, opts: RunOptions, signal: AbortSignal): Promise<void> {
  const dirty = new Set<string>();
  let fullScan = false;
  let running: Promise<void> | null = null;
  let again = false;
  let fatal: unknown = null;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  if (signal.aborted) return;
  signal.addEventListener('abort', () => stop(), { once: true });

  const run = async () => {
    do {
      again = false;
      const paths = fullScan ? undefined : [...dirty];
      if (fullScan) fullScan = false;
      dirty.clear();
      try {
        const summary = await syncCycle(ctx, paths);
        if (summary.push.applied || summary.push.conflicts || summary.pull.written || summary.pull.deleted)
          console.log(`${new Date().toISOString()} ${describe(summary)}`);
      } catch (err) {
        if (signal.aborted) return;
        if (isFatal(err)) {
          fatal = err;
          stop();
          return;
        }
        for (const p of paths ?? []) dirty.add(p); // try these again next time
        ctx.reporter.warn(`sync failed, retrying on the next poll: ${(err as Error).message}`);
      }
    } while (again && !signal.aborted);
  };
  const kick = () => {
    if (signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = null;
    });
  };

  let debounceTimer: NodeJS.Timeout | undefined;
  const watcher = await watchFolder(ctx.root, (rel, kind) => {
    if (kind === 'dir-removed') fullScan = true;
    else dirty.add(rel);
    clearTimeout(debounceTimer);
    debounceTimer = setTimeout(kick, opts.debounce);
  });
  const poll = setInterval(kick, opts.interval * 1000);
  const rescan = setInterval(() => {
    fullScan = true;
    kick();
  }, FULL_SCAN_EVERY_MS);
  const heartbeat = setInterval(() => {
    ctx.api.heartbeat(connectorId).catch((err) => ctx.reporter.warn(`heartbeat failed: ${(err as Error).message}`));
  }, HEARTBEAT_EVERY_MS);
  fullScan = true; // changes made between the first cycle and the watcher being ready
  kick();
  try {
    await stopped;
  } finally {
    clearTimeout(debounceTimer);
    clearInterval(poll);
    clearInterval(rescan);
    clearInterval(heartbeat);
    await watcher.close();
    if (running) await running;
  }
  if (fatal) throw fatal;
}
