import type { Ctx } from '../context.js';
import { AppError } from '../errors.js';
import { toAppError } from '../http/errors.js';
import { callTool, toolResult } from './call.js';
import type { ToolRegistry } from './registry.js';
import type { ToolEnv } from './tool.js';

/*
 * Long jobs as MCP tasks (the 2025-11-25 revision's tasks, which the official 1.x client speaks: `tools/call` with
 * `params.task`, then `tasks/get` until the task ends, then `tasks/result`). A research, export or import is already a
 * stored job with a status and progress, so a task is nothing more than the job: its id names the job and the tool that
 * reads it, every `tasks/*` request reads it again through that tool (as the caller, with the tool's checks), and the
 * server keeps no state between requests. The 2026-07-28 revision moved tasks to an extension that the SDK v2 does not
 * run yet; there the tools answer as before (the job, to poll with its status tool).
 */

interface LongJob {
  /** The tool that reads the job's state. */
  status: string;
  /** The tool that cancels it, if there is one. */
  cancel?: string;
  /** That tool's arguments, from the started job and the arguments it was started with. */
  args(job: { id: string; workspaceId?: string }, started: Record<string, unknown>): Record<string, unknown>;
}

/** The tools that start a long job, by name. */
export const LONG_JOBS: Record<string, LongJob> = {
  research_create: {
    status: 'research_status',
    cancel: 'research_cancel',
    args: (job, started) => ({ workspaceId: job.workspaceId ?? started.workspaceId, jobId: job.id }),
  },
  export_create: { status: 'export_get', args: (job) => ({ exportId: job.id }) },
  import_create: { status: 'import_get', args: (job) => ({ importId: job.id }) },
};

/** What `initialize` says on the 2025 revisions: tool calls can be tasks, and tasks can be cancelled. */
export const TASKS_CAPABILITY = { requests: { tools: { call: {} } }, cancel: {} };

/** How often a client should ask again (ms), and how long `tasks/result` waits for a task still running. */
const POLL_INTERVAL_MS = 1000;
const RESULT_WAIT_MS = 60_000;

interface JobState {
  status: string;
  progress: number | { done: number; total: number };
  error?: unknown;
  createdAt: string;
  finishedAt?: string | null;
  completedAt?: string | null;
  startedAt?: string | null;
}

type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';
const TASK_STATUS: Record<string, TaskStatus> = {
  pending: 'working',
  queued: 'working',
  running: 'working',
  completed: 'completed',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

const taskIdOf = (tool: string, args: Record<string, unknown>) => Buffer.from(JSON.stringify({ tool, args })).toString('base64url');

function jobOfTask(taskId: unknown): { tool: string; args: Record<string, unknown> } {
  const unknown = () => new AppError('NOT_FOUND', 'Unknown task', { resource: 'Task' });
  if (typeof taskId !== 'string' || taskId.length > 2000) throw unknown();
  try {
    const named = JSON.parse(Buffer.from(taskId, 'base64url').toString()) as { tool?: unknown; args?: unknown };
    const known = Object.values(LONG_JOBS).some((j) => j.status === named.tool);
    if (!known || !named.args || typeof named.args !== 'object') throw unknown();
    return { tool: named.tool as string, args: named.args as Record<string, unknown> };
  } catch {
    throw unknown();
  }
}

/** The job as a task: its status, and its progress in words. */
function taskOf(taskId: string, job: JobState) {
  const status = TASK_STATUS[job.status] ?? 'working';
  const progress = typeof job.progress === 'number' ? `${job.progress}%` : job.progress.total ? `${job.progress.done} of ${job.progress.total}` : null;
  const error = typeof job.error === 'string' ? job.error : (job.error as { message?: string } | null)?.message;
  return {
    taskId,
    status,
    statusMessage: status === 'failed' && error ? error : `${job.status}${progress && status === 'working' ? `, ${progress}` : ''}`,
    createdAt: job.createdAt,
    lastUpdatedAt: job.finishedAt ?? job.completedAt ?? job.startedAt ?? job.createdAt,
    ttl: null,
    pollInterval: POLL_INTERVAL_MS,
  };
}

type JsonRpc = { jsonrpc: '2.0'; id: string | number | null } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } });

/**
 * Answers a 2025-era request that is about tasks: a long job's `tools/call` with `params.task` (the job starts, and the
 * answer is its task), `tasks/get`, `tasks/result` and `tasks/cancel`. Anything else: undefined (the SDK serves it).
 */
export async function answeredAsTask(registry: ToolRegistry, ctx: Ctx, env: ToolEnv, body: unknown): Promise<JsonRpc | undefined> {
  const request = body as { id?: string | number; method?: string; params?: Record<string, unknown> } | null;
  if (!request || typeof request !== 'object' || request.id === undefined) return undefined;
  const params = request.params ?? {};
  const answer = (result: unknown): JsonRpc => ({ jsonrpc: '2.0', id: request.id ?? null, result });
  const refuse = (err: unknown): JsonRpc => {
    const e = toAppError(err as Error);
    if (e.status >= 500) throw err;
    return { jsonrpc: '2.0', id: request.id ?? null, error: { code: -32602, message: `${e.code}: ${e.message}`, data: { code: e.code } } };
  };
  const read = async (taskId: unknown) => {
    const { tool, args } = jobOfTask(taskId);
    return { tool, args, job: (await callTool(registry, ctx, env, tool, args)) as JobState };
  };
  try {
    switch (request.method) {
      case 'tools/call': {
        const long = LONG_JOBS[String(params.name)];
        if (!long || !params.task) return undefined;
        const started = (params.arguments ?? {}) as Record<string, unknown>;
        // Refused at the start (arguments, permissions, limits): a JSON-RPC error, as for any request that makes no task.
        const job = (await callTool(registry, ctx, env, String(params.name), started)) as JobState & { id: string; workspaceId?: string };
        return answer({ task: taskOf(taskIdOf(long.status, long.args(job, started)), job) });
      }
      case 'tasks/get': {
        const { job } = await read(params.taskId);
        return answer(taskOf(String(params.taskId), job));
      }
      case 'tasks/result': {
        let { job, tool, args } = await read(params.taskId);
        for (const until = Date.now() + RESULT_WAIT_MS; TASK_STATUS[job.status] === 'working' && Date.now() < until; ) {
          await new Promise((r) => setTimeout(r, 500));
          job = (await callTool(registry, ctx, env, tool, args)) as JobState;
        }
        const status = TASK_STATUS[job.status];
        if (status === 'working')
          return refuse(new AppError('PRECONDITION_FAILED', `The task is still ${job.status}; ask tasks/result again`, { status: job.status }));
        if (status === 'completed') return answer(toolResult(job));
        const task = taskOf(String(params.taskId), job);
        return answer({ content: [{ type: 'text', text: `${status.toUpperCase()}: ${task.statusMessage}\n${JSON.stringify(job)}` }], isError: true });
      }
      case 'tasks/cancel': {
        const { tool, args } = jobOfTask(params.taskId);
        const cancel = Object.values(LONG_JOBS).find((j) => j.status === tool)?.cancel;
        if (!cancel) throw new AppError('PRECONDITION_FAILED', 'This kind of task cannot be cancelled; it ends by itself', { tool });
        await callTool(registry, ctx, env, cancel, args);
        const { job } = await read(params.taskId);
        return answer(taskOf(String(params.taskId), job));
      }
      default:
        return undefined;
    }
  } catch (err) {
    return refuse(err);
  }
}
