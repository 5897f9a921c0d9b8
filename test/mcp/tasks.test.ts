import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { exportWorker } from '../exports/helpers.js';
import { connectMcp, listeningHandbook } from '../helpers/mcp.js';

/**
 * Long jobs as MCP tasks on the 2025-11-25 revision, through the official 1.x client's task support: an export runs
 * as a task to its end (status with progress, then its result), a research job is cancelled as a task, and a task is
 * only ever read as its caller could read the job.
 */

let h: Awaited<ReturnType<typeof listeningHandbook>>;
let worker: Worker;
let editor: Client;
let viewer: Client;

beforeAll(async () => {
  h = await listeningHandbook();
  worker = exportWorker(h.t);
  editor = await connectMcp(h.base, h.ws.editor.token);
  viewer = await connectMcp(h.base, h.ws.viewer.token);
  await editor.callTool({ name: 'page_create', arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Exported', markdown: 'Hello' } });
});
afterAll(async () => {
  await worker?.stop();
  await editor?.close();
  await viewer?.close();
  await h?.t.close();
});

describe('long jobs as tasks (2025-11-25)', () => {
  it('says which tools can run as tasks, and that tool calls can be tasks', async () => {
    expect(editor.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } }, cancel: {} });
    const { tools } = await editor.listTools();
    const tasked = tools.filter((t) => t.execution?.taskSupport === 'optional').map((t) => t.name);
    expect(tasked.sort()).toEqual(['export_create', 'import_create', 'research_create']);
  });

  it('runs an export as a task: created, working with progress, then its result (the finished export)', async () => {
    const seen: Array<{ type: string; status?: string; message?: string }> = [];
    let result: Record<string, unknown> | undefined;
    for await (const m of editor.experimental.tasks.callToolStream({
      name: 'export_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, format: 'markdown' },
    })) {
      if (m.type === 'taskCreated' || m.type === 'taskStatus') seen.push({ type: m.type, status: m.task.status, message: m.task.statusMessage });
      if (m.type === 'result') result = m.result.structuredContent as Record<string, unknown>;
      if (m.type === 'error') throw m.error;
    }
    expect(seen[0]).toMatchObject({ type: 'taskCreated', status: 'working', message: 'queued' });
    expect(seen.at(-1)).toMatchObject({ type: 'taskStatus', status: 'completed', message: 'succeeded' });
    expect(result).toMatchObject({ status: 'succeeded', format: 'markdown', downloadUrl: expect.stringMatching(/\/download$/) });
  });

  it('cancels a research job as a task; its result then says so', async () => {
    const created = await editor.request(
      {
        method: 'tools/call',
        params: { name: 'research_create', arguments: { workspaceId: h.ws.workspace.id, topic: 'never mind', sources: ['docs'] }, task: {} },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect(created.task).toMatchObject({ status: 'working', statusMessage: 'pending, 0%', ttl: null, pollInterval: 1000 });
    expect(await editor.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'working' });
    expect(await editor.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    const after = await editor.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(after.isError).toBe(true);
    expect((after.content[0] as { text: string }).text).toMatch(/^CANCELLED: cancelled/);
  });

  it('reads a task only as its caller may read the job; refuses made-up ids and a start the caller may not make', async () => {
    const created = await editor.request(
      { method: 'tools/call', params: { name: 'export_create', arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, format: 'html' }, task: {} } },
      CreateTaskResultSchema,
    );
    // Only an export's requester sees it: to anyone else its task is unknown.
    await expect(viewer.experimental.tasks.getTask(created.task.taskId)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/NOT_FOUND/) });
    await expect(editor.experimental.tasks.getTask('not-a-task')).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown task/) });
    const forged = Buffer.from(JSON.stringify({ tool: 'page_delete', args: { pageId: 'x' } })).toString('base64url');
    await expect(editor.experimental.tasks.getTask(forged)).rejects.toMatchObject({ message: expect.stringMatching(/Unknown task/) });
    await expect(editor.experimental.tasks.cancelTask(created.task.taskId)).rejects.toMatchObject({ message: expect.stringMatching(/cannot be cancelled/) });
    // A viewer may not start research: a JSON-RPC error naming why, and no task.
    await expect(
      viewer.request(
        { method: 'tools/call', params: { name: 'research_create', arguments: { workspaceId: h.ws.workspace.id, topic: 'x' }, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/FORBIDDEN/) });
  });
});
