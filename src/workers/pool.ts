import type { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createLogger } from '../logging.js';
import type { CpuTaskName, CpuTaskReply, CpuTaskRequest, CpuTasks } from './cpu-tasks.js';

/**
 * The CPU pool: worker threads for work too heavy for the request thread (embedding, Markdown over large inputs).
 * Created on first use, not at start; its threads exit after CPU_WORKER_IDLE_MS without work, so an idle service
 * holds no thread and no model. One pool per lane per process: the first caller's settings size it.
 */
export type CpuPoolSettings = Pick<Config, 'CPU_WORKERS' | 'CPU_WORKER_IDLE_MS' | 'CPU_WORKER_NICE'> & Partial<Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>>;

/** Work someone waits for (a search's query vector, a big Markdown conversion) or work that can wait (the indexer's). */
export type CpuPriority = 'interactive' | 'background';

/**
 * One pool per lane, so a search's query vector never queues behind the indexer's batches: interactive threads run at
 * the process's priority, background threads at CPU_WORKER_NICE, so requests get the cores first. An idle lane holds
 * no thread (and no model).
 */
const pools = new Map<CpuPriority, Promise<Piscina>>();

/**
 * From source (tsx, vitest) a thread starts at a small JavaScript entry that registers tsx's loader in that thread;
 * from a build it loads the compiled task module itself.
 */
function workerEntry(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './ts-entry.mjs' : './cpu-tasks.js', here).href;
}

/** The lane's pool, started on first use (exported for tests; run tasks through `runCpuTask`). */
export function poolFor(settings: CpuPoolSettings, priority: CpuPriority): Promise<Piscina> {
  let pool = pools.get(priority);
  if (!pool) {
    pool = import('piscina').then(({ Piscina }) => {
      const piscina = new Piscina({
        filename: workerEntry(),
        minThreads: 0,
        maxThreads: settings.CPU_WORKERS,
        idleTimeout: settings.CPU_WORKER_IDLE_MS,
        // The thread loads what it needs itself; the parent's flags (tsx's loader among them) are not its business.
        execArgv: [],
        workerData: { nice: priority === 'background' ? settings.CPU_WORKER_NICE : 0 },
      });
      // A thread that fails between tasks (an uncaught error there, a message it should not send) is reported as the
      // pool's 'error' event: without a listener that event would end the whole process. Piscina replaces the thread;
      // a task's own failure rejects its `run` as always.
      piscina.on('error', (err: unknown) => poolLog(settings).error({ err, lane: priority }, 'CPU pool thread failed outside a task'));
      return piscina;
    });
    pools.set(priority, pool);
  }
  return pool;
}

let log: ReturnType<typeof createLogger> | undefined;
const poolLog = (settings: CpuPoolSettings) =>
  (log ??= createLogger({ LOG_LEVEL: settings.LOG_LEVEL ?? 'info', LOG_FORMAT: settings.LOG_FORMAT ?? 'json' }, 'cpu-pool'));

/** Runs a task on the CPU pool and returns its value; an AppError thrown there is thrown here with its code and details. */
export async function runCpuTask<K extends CpuTaskName>(
  settings: CpuPoolSettings,
  task: K,
  input: Parameters<CpuTasks[K]>[0],
  opts: { signal?: AbortSignal; priority?: CpuPriority } = {},
): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
  const { signal, priority = 'interactive' } = opts;
  const piscina = await poolFor(settings, priority);
  const request: CpuTaskRequest = { task, input };
  const reply = (await piscina.run(request, signal ? { signal } : {})) as CpuTaskReply;
  if ('appError' in reply) {
    const { code, message, details, status } = reply.appError;
    throw new AppError(code, message, details, status);
  }
  return reply.value as Awaited<ReturnType<CpuTasks[K]>>;
}

/** Threads the pools have now (0 before first use and after the idle timeout). */
export async function cpuPoolThreads(): Promise<number> {
  let threads = 0;
  for (const pool of pools.values()) threads += (await pool).threads.length;
  return threads;
}

/** Stops the pools' threads (at shutdown); the next task starts new pools. */
export async function closeCpuPool(): Promise<void> {
  const current = [...pools.values()];
  pools.clear();
  for (const pool of current) await (await pool).destroy();
}
