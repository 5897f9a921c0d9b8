import type { Piscina, PiscinaTask as Task, TaskQueue } from 'piscina';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { CpuTaskName, CpuTaskReply, CpuTaskRequest, CpuTasks } from './cpu-tasks.js';

/**
 * The CPU pool: worker threads for work too heavy for the request thread (embedding, Markdown over large inputs).
 * Created on first use, not at start; its threads exit after CPU_WORKER_IDLE_MS without work, so an idle service
 * holds no thread and no model. One pool per process: the first caller's settings size it.
 */
export type CpuPoolSettings = Pick<Config, 'CPU_WORKERS' | 'CPU_WORKER_IDLE_MS' | 'CPU_WORKER_NICE'>;

let pool: Promise<Piscina> | null = null;

/** Work someone waits for (a search's query vector) or work that can wait (the indexer's batches). */
export type CpuPriority = 'interactive' | 'background';

/**
 * Two lanes, first in first out within each: a waiting interactive task goes before every waiting background task,
 * so a search's query vector waits at most for the batch a thread is already running.
 */
class TwoLaneQueue implements TaskQueue {
  private readonly lanes: Task[][] = [[], []];
  constructor(private readonly optionsKey: symbol) {}
  get size() {
    return this.lanes[0].length + this.lanes[1].length;
  }
  push(task: Task) {
    const options = (task as unknown as Record<symbol, { priority?: CpuPriority } | null>)[this.optionsKey];
    this.lanes[options?.priority === 'background' ? 1 : 0].push(task);
  }
  shift(): Task | null {
    return this.lanes[0].shift() ?? this.lanes[1].shift() ?? null;
  }
  remove(task: Task) {
    for (const lane of this.lanes) {
      const i = lane.indexOf(task);
      if (i >= 0) lane.splice(i, 1);
    }
  }
}

/**
 * From source (tsx, vitest) a thread starts at a small JavaScript entry that registers tsx's loader in that thread;
 * from a build it loads the compiled task module itself.
 */
function workerEntry(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './ts-entry.mjs' : './cpu-tasks.js', here).href;
}

function poolFor(settings: CpuPoolSettings): Promise<Piscina> {
  pool ??= import('piscina').then(
    ({ Piscina, queueOptionsSymbol }) =>
      new Piscina({
        filename: workerEntry(),
        minThreads: 0,
        maxThreads: settings.CPU_WORKERS,
        idleTimeout: settings.CPU_WORKER_IDLE_MS,
        // The thread loads what it needs itself; the parent's flags (tsx's loader among them) are not its business.
        execArgv: [],
        taskQueue: new TwoLaneQueue(queueOptionsSymbol),
        workerData: { nice: settings.CPU_WORKER_NICE },
      }),
  );
  return pool;
}

/** Runs a task on the CPU pool and returns its value; an AppError thrown there is thrown here with its code and details. */
export async function runCpuTask<K extends CpuTaskName>(
  settings: CpuPoolSettings,
  task: K,
  input: Parameters<CpuTasks[K]>[0],
  opts: { signal?: AbortSignal; priority?: CpuPriority } = {},
): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
  const piscina = await poolFor(settings);
  const { signal, priority = 'interactive' } = opts;
  // The queue options ride on a symbol key, which the structured clone to the thread leaves behind.
  const { queueOptionsSymbol } = await import('piscina');
  const request: CpuTaskRequest = Object.assign({ task, input }, { [queueOptionsSymbol]: { priority } });
  const reply = (await piscina.run(request, signal ? { signal } : {})) as CpuTaskReply;
  if ('appError' in reply) {
    const { code, message, details, status } = reply.appError;
    throw new AppError(code, message, details, status);
  }
  return reply.value as Awaited<ReturnType<CpuTasks[K]>>;
}

/** Threads the pool has now (0 before first use and after the idle timeout). */
export async function cpuPoolThreads(): Promise<number> {
  return pool ? (await pool).threads.length : 0;
}

/** Stops the pool's threads (at shutdown); the next task starts a new pool. */
export async function closeCpuPool(): Promise<void> {
  const current = pool;
  pool = null;
  if (current) await (await current).destroy();
}
