import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Worker } from '../../src/jobs/worker.js';
import { toolResult } from '../../src/mcp/call.js';
import { ToolRegistry, toolRegistry } from '../../src/mcp/registry.js';
import { defineTool, READ } from '../../src/mcp/tool.js';
import type { TestApp } from '../helpers/app.js';
import { createUser, type TestUser, type workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook, mcpClients, toolErrorOf } from '../helpers/mcp.js';
import { exportWorker } from '../exports/helpers.js';
import { importWorker } from '../imports/helpers.js';
import { dispatch } from '../notifications/helpers.js';
import { researchWorker } from '../research/helpers.js';

/**
 * Every tool on `/api/mcp` declares an `outputSchema`, and what it answers fits it: one story calls every tool with
 * real data through the official SDK client (which itself checks `structuredContent` against the listed
 * `outputSchema`, and throws on a mismatch), and each result is validated again with a strict draft 2020-12 Ajv.
 * Jobs (imports, exports, research from the workspace's own docs) run in real workers, so their finished records are
 * checked too. Nothing needs an outside service: webhook deliveries are only queued, never sent.
 */

/** Tools that answer nothing (so declare no outputSchema), with the reason. None: every tool answers a record or a list. */
const ANSWERS_NOTHING: Record<string, string> = {};

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
let tools: Tool[];
let workers: Worker[];
const clients = mcpClients();
const as = new Map<TestUser, Client>();
/** Every structured result of the story, by tool. */
const results = new Map<string, Array<Record<string, unknown>>>();

/** `user`'s SDK client, which has listed the tools: from then on it checks every result against its tool's outputSchema. */
async function clientOf(user: TestUser): Promise<Client> {
  let client = as.get(user);
  if (!client) {
    client = await clients.connect(base, user.token);
    await client.listTools();
    as.set(user, client);
  }
  return client;
}

/** Calls a tool as `user`, expecting a success; records its structured content. */
async function call(user: TestUser, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const client = await clientOf(user);
  const res = await client.callTool({ name, arguments: args }).catch((err: Error) => {
    throw new Error(`${name}: ${err.message}`);
  });
  if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content)}`);
  const out = res.structuredContent as Record<string, unknown>;
  results.set(name, [...(results.get(name) ?? []), out]);
  return out;
}

/** Calls a read tool until `done` holds for its result (a job has finished), every answer on the way recorded and checked. */
async function until(user: TestUser, name: string, args: Record<string, unknown>, done: (out: any) => boolean) {
  const stop = Date.now() + 30_000;
  while (!done(await call(user, name, args))) {
    if (Date.now() > stop) throw new Error(`${name}: not done after 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Every tool called with valid arguments, in an order that gives each the data it needs. */
async function story() {
  const { admin, editor, viewer, outsider } = ws;
  const workspaceId = ws.workspace.id;
  const [newcomer, passerby] = await Promise.all([createUser(t, 'Newcomer'), createUser(t, 'Passerby')]);

  // Workspaces, members, invitations, users and the audit log.
  await call(viewer, 'workspace_list');
  await call(viewer, 'workspace_get', { workspaceId });
  await call(outsider, 'workspace_create', { name: 'Side project', hostname: `side-${randomUUID().slice(0, 8)}` });
  await call(admin, 'workspace_update', { workspaceId, description: 'Our team', settings: { allowPublicPages: true } });
  await call(viewer, 'workspace_member_list', { workspaceId });
  const invited = await call(admin, 'workspace_member_add', { workspaceId, userId: newcomer.id, role: 'viewer' });
  await call(newcomer, 'invitation_list_mine');
  await call(newcomer, 'invitation_accept', { id: invited.invitation.id });
  await call(admin, 'workspace_member_update', { workspaceId, userId: newcomer.id, role: 'editor' });
  await call(admin, 'workspace_member_remove', { workspaceId, userId: newcomer.id });
  const declined = await call(admin, 'workspace_member_add', { workspaceId, userId: passerby.id, role: 'viewer' });
  await call(passerby, 'invitation_decline', { id: declined.invitation.id });
  const emailed = await call(admin, 'invitation_create', { workspaceId, email: `someone-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' });
  await call(admin, 'invitation_list', { workspaceId });
  await call(admin, 'invitation_revoke', { workspaceId, id: emailed.invitation.id });
  await call(admin, 'audit_log_list', { workspaceId });
  await call(editor, 'user_me', { workspaceId });
  await call(viewer, 'user_list', { workspaceId });
  await call(viewer, 'user_get', { userId: editor.id, workspaceId });
  await call(viewer, 'user_update', { userId: viewer.id, name: 'Vera Viewer' });

  // Spaces and groups.
  const docs = await call(admin, 'space_create', { workspaceId, name: 'Docs' });
  await call(viewer, 'space_list', { workspaceId });
  await call(viewer, 'space_get', { workspaceId, spaceId: docs.id });
  await call(admin, 'space_update', { workspaceId, spaceId: docs.id, description: 'Team docs' });
  const group = await call(admin, 'group_create', { workspaceId, name: 'Writers' });
  await call(admin, 'group_member_add', { groupId: group.id, userIds: [editor.id] });
  await call(viewer, 'group_list', { workspaceId });
  await call(viewer, 'group_get', { groupId: group.id });
  await call(admin, 'group_update', { groupId: group.id, description: 'People who write' });
  await call(admin, 'space_member_add', { workspaceId, spaceId: docs.id, userIds: [viewer.id], groupIds: [group.id], role: 'viewer' });
  await call(viewer, 'space_member_list', { spaceId: docs.id });
  await call(admin, 'space_permission_set', { workspaceId, spaceId: docs.id, targetId: editor.id, role: 'editor' });
  await call(viewer, 'space_permission_list', { spaceId: docs.id });
  await call(admin, 'space_member_remove', { spaceId: docs.id, userId: viewer.id });
  await call(admin, 'group_member_remove', { groupId: group.id, userId: editor.id });
  await call(admin, 'group_delete', { groupId: group.id });
  await call(admin, 'space_delete', { workspaceId, spaceId: docs.id });

  // Pages, their history, access, shares, trash, favourites; the viewer watches one.
  const page = await call(editor, 'page_create', { workspaceId, spaceId, title: 'Onboarding', markdown: '# Welcome\n\nRead the **handbook**.' });
  const child = await call(editor, 'page_create', { workspaceId, spaceId, title: 'Laptop setup', markdown: 'Install things.', parentId: page.id });
  await call(viewer, 'page_watch', { pageId: page.id });
  await call(viewer, 'page_list', { workspaceId, spaceId });
  await call(viewer, 'page_get', { pageId: page.id });
  await call(viewer, 'page_get', { pageId: page.id, format: 'json' });
  await call(editor, 'page_update', { pageId: page.id, title: 'Onboarding guide', markdown: 'Second draft: read the handbook.' });
  await call(editor, 'page_move', { pageId: child.id, parentId: null, afterId: page.id });
  const history = await call(viewer, 'page_history', { pageId: page.id });
  const first = history.items.at(-1).id;
  await call(viewer, 'page_history_get', { pageId: page.id, historyId: first });
  await call(viewer, 'page_history_get', { pageId: page.id, historyId: first, format: 'json' });
  await call(editor, 'page_restore', { pageId: page.id, historyId: first });
  await call(viewer, 'page_access_get', { pageId: page.id });
  const grants = [editor, viewer, admin].map((u) => ({ userId: u.id, role: u === viewer ? 'viewer' : 'editor' }));
  await call(editor, 'page_restrict', { pageId: page.id, grants });
  await call(viewer, 'page_access_get', { pageId: page.id });
  await call(editor, 'page_unrestrict', { pageId: page.id });
  const shared = await call(editor, 'share_create', { pageId: page.id });
  await call(admin, 'share_list', { workspaceId });
  await call(editor, 'share_revoke', { shareId: shared.share.id });
  const copy = await call(editor, 'page_duplicate', { pageId: child.id, title: 'Copy of the setup' });
  await call(editor, 'page_delete', { pageId: copy.id });
  await call(viewer, 'page_trash_list', { workspaceId });
  await call(editor, 'page_recover', { pageId: copy.id });
  await call(viewer, 'page_favorite_add', { pageId: page.id });
  await call(viewer, 'page_favorite_list', { workspaceId });
  await call(viewer, 'page_favorite_remove', { pageId: page.id });
  await call(viewer, 'page_recent', { workspaceId });

  // Comments and attachments.
  const thread = await call(editor, 'comment_create', { workspaceId, pageId: page.id, text: 'Should we link the handbook?' });
  const reply = await call(admin, 'comment_create', { workspaceId, pageId: page.id, text: 'Yes.', parentId: thread.id });
  await call(viewer, 'comment_list', { workspaceId, pageId: page.id });
  await call(viewer, 'comment_get', { commentId: thread.id });
  await call(editor, 'comment_update', { commentId: thread.id, text: 'Link the handbook.' });
  await call(editor, 'comment_react', { commentId: thread.id, emoji: '👍' });
  await call(editor, 'comment_resolve', { workspaceId, commentId: thread.id, resolved: true });
  await call(admin, 'comment_delete', { commentId: reply.id });
  const file = await call(editor, 'attachment_upload', {
    workspaceId,
    pageId: page.id,
    filename: 'notes.md',
    contentType: 'text/markdown',
    data: base64('line one\nline two\n'),
  });
  await call(viewer, 'attachment_list', { workspaceId, pageId: page.id });
  await call(viewer, 'attachment_get', { attachmentId: file.id });
  await call(viewer, 'attachment_read', { attachmentId: file.id, maxBytes: 9 });
  await call(editor, 'attachment_delete', { attachmentId: file.id });

  // Templates.
  const template = await call(editor, 'template_create', { workspaceId, spaceId, title: 'Decision record', markdown: '# {{title}}\n\nBy {{author}}.' });
  await call(viewer, 'template_list', { workspaceId, spaceId });
  await call(viewer, 'template_get', { templateId: template.id });
  await call(viewer, 'template_get', { templateId: template.id, format: 'json' });
  await call(editor, 'template_update', { templateId: template.id, description: 'For ADRs' });
  await call(editor, 'page_create_from_template', { templateId: template.id, spaceId, title: 'Use PostgreSQL' });
  await call(editor, 'template_delete', { templateId: template.id });

  // Projects, tasks and goals.
  const project = await call(editor, 'project_create', { workspaceId, name: 'Launch' });
  const task = await call(editor, 'task_create', {
    workspaceId,
    title: 'Write the launch post',
    priority: 'high',
    labels: ['docs'],
    projectId: project.id,
    bucket: 'now',
    dueDate: '2030-01-15',
  });
  await call(viewer, 'task_list', { workspaceId });
  await call(viewer, 'task_get', { taskId: task.id });
  await call(editor, 'task_update', { taskId: task.id, status: 'in_progress', description: 'Draft in **Markdown**' });
  await call(editor, 'task_assign', { taskId: task.id, assigneeId: editor.id });
  await call(viewer, 'task_triage_summary', { workspaceId });
  await call(viewer, 'label_list', { workspaceId });
  await call(viewer, 'project_list', { workspaceId });
  await call(viewer, 'project_get', { projectId: project.id });
  await call(editor, 'project_update', { projectId: project.id, description: 'Q3 launch' });
  await call(editor, 'project_archive', { projectId: project.id });
  await call(editor, 'project_unarchive', { projectId: project.id });
  const goal = await call(editor, 'goal_create', { workspaceId, title: 'Ship v1', horizon: 'mid', keywords: ['launch'] });
  await call(editor, 'goal_link_task', { workspaceId, goalId: goal.id, taskId: task.id });
  await call(editor, 'task_complete', { taskId: task.id });
  await call(viewer, 'goal_list', { workspaceId, includeTasks: true });
  await call(viewer, 'goal_get', { workspaceId, goalId: goal.id, includeTasks: true });
  await call(editor, 'goal_update', { workspaceId, goalId: goal.id, horizon: 'long' });
  await call(editor, 'goal_unlink_task', { workspaceId, goalId: goal.id, taskId: task.id });
  await call(editor, 'goal_delete', { workspaceId, goalId: goal.id });
  await call(editor, 'task_delete', { taskId: task.id });
  await call(editor, 'project_delete', { projectId: project.id });

  // Search, memory and knowledge.
  await call(viewer, 'search_query', { workspaceId, query: 'handbook' });
  await call(viewer, 'search_suggest', { workspaceId, query: 'onboa' });
  const memory = await call(editor, 'memory_ingest', { workspaceId, content: 'We deploy on Tuesdays.', tags: ['ops'], source: 'standup' });
  await call(viewer, 'memory_query', { workspaceId, query: 'deploy' });
  await call(viewer, 'memory_list', { workspaceId });
  await call(viewer, 'knowledge_search', { workspaceId, query: 'deploy' });
  await call(editor, 'memory_delete', { workspaceId, id: memory.id });

  // Bug reports.
  const bug = await call(admin, 'bug_report_create', { workspaceId, title: 'Search misses titles', description: 'Steps…' });
  await call(viewer, 'bug_report_auto', { workspaceId, source: 'auto:agent', errorMessage: 'Tool page_get timed out', errorCode: 'TIMEOUT' });
  await call(admin, 'bug_report_list', { workspaceId });
  await call(admin, 'bug_report_get', { bugReportId: bug.id });
  await call(admin, 'bug_report_update', { bugReportId: bug.id, status: 'resolved' });
  await call(admin, 'bug_report_delete', { bugReportId: bug.id });

  // Webhooks and notifications: an edit of the watched page, fanned out as the dispatcher job does.
  const hook = await call(admin, 'webhook_create', { workspaceId, url: 'https://93.184.215.14/hook', events: ['*'] });
  await call(admin, 'webhook_list', { workspaceId });
  await call(admin, 'webhook_update', { webhookId: hook.webhook.id, description: 'everything' });
  await call(editor, 'page_update', { pageId: page.id, markdown: 'Third draft.' });
  await dispatch(t);
  await call(admin, 'webhook_deliveries', { webhookId: hook.webhook.id });
  await call(admin, 'webhook_delete', { webhookId: hook.webhook.id });
  const notifications = await call(viewer, 'notification_list', { workspaceId });
  await call(viewer, 'notification_mark_read', { notificationId: notifications.data[0].id });
  await call(viewer, 'page_unwatch', { pageId: page.id });

  // Jobs, run by the workers: each state they pass through is checked.
  const exported = await call(editor, 'export_create', { workspaceId, spaceId });
  await until(editor, 'export_get', { exportId: exported.id }, (e) => e.status === 'succeeded');
  const imported = await call(editor, 'import_create', { workspaceId, spaceId, filename: 'Monday.md', data: base64('We decided **things**.') });
  await until(editor, 'import_get', { importId: imported.id }, (i) => i.status === 'succeeded');
  const research = await call(editor, 'research_create', { workspaceId, topic: 'onboarding handbook', sources: ['docs'], outputMode: 'brief', timeBudget: 5 });
  await until(editor, 'research_status', { workspaceId, jobId: research.id }, (r) => r.status === 'completed');
  await call(editor, 'research_report', { workspaceId, jobId: research.id });
  await call(editor, 'research_list', { workspaceId });
  const cancelled = await call(editor, 'research_create', { workspaceId, topic: 'never mind', sources: ['docs'] });
  await call(editor, 'research_cancel', { workspaceId, jobId: cancelled.id });

  await call(viewer, 'tool_search', { query: 'move a page to another parent', limit: 3 });
}

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
  workers = [exportWorker(t), importWorker(t), researchWorker(t)];
  tools = (await (await clientOf(ws.viewer)).listTools()).tools;
  await story();
}, 120_000);
afterAll(async () => {
  await Promise.all(workers?.map((w) => w.stop()) ?? []);
  await clients.close();
  await t?.close();
});

describe('outputSchema on /api/mcp', () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  formats.default(ajv);
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (tool: Tool) => {
    if (!validators.has(tool.name)) validators.set(tool.name, ajv.compile(tool.outputSchema as object));
    return validators.get(tool.name) as ValidateFunction;
  };

  it('every tool that answers something declares an object outputSchema', () => {
    const without = tools.filter((tool) => !tool.outputSchema).map((tool) => tool.name);
    expect(without).toEqual(Object.keys(ANSWERS_NOTHING));
    for (const tool of tools.filter((x) => x.outputSchema)) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('every tool was called, and each of its results validates against its outputSchema', () => {
    const failures: string[] = [];
    for (const tool of tools.filter((x) => x.outputSchema)) {
      const outs = results.get(tool.name) ?? [];
      if (!outs.length) failures.push(`${tool.name}: never called`);
      const validate = validatorOf(tool);
      for (const out of outs) if (!validate(out)) failures.push(`${tool.name}: ${ajv.errorsText(validate.errors)}`);
      const list = (out: Record<string, unknown>) => out.items ?? out.data ?? out.results;
      const lists = outs.map(list).filter(Array.isArray);
      // A list must hold an item at least once, so that its item schema is put to the test.
      if (lists.length && lists.every((l) => !l.length)) failures.push(`${tool.name}: only empty lists`);
    }
    expect(failures).toEqual([]);
  });

  it('every result is what REST presents: its output schema (the REST one) keeps all of it and drops nothing', () => {
    const registry = toolRegistry();
    const hidden = [...results].flatMap(([name, outs]) =>
      outs.filter((out) => !isDeepStrictEqual(registry.get(name)?.output.parse(out), out)).map((out) => `${name}: ${JSON.stringify(out)}`),
    );
    expect(hidden).toEqual([]);
  });

  it('a result that misses a field or breaks a type does not validate', () => {
    const validate = validatorOf(tools.find((x) => x.name === 'page_get') as Tool);
    const [out] = results.get('page_get') ?? [];
    const { title: _, ...untitled } = out;
    expect(validate(out)).toBe(true);
    expect(validate(untitled)).toBe(false);
    expect(validate({ ...out, parentId: 42 })).toBe(false);
  });

  it('a tool error is an isError result with its code in the text and no structured content, so the SDK client passes it on', async () => {
    const res = await (await clientOf(ws.viewer)).callTool({ name: 'page_get', arguments: { pageId: 'nope' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    expect(toolErrorOf(res)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('the seed interface (/mcp-standard) lists no outputSchema', async () => {
    const res = await t.request({ method: 'POST', url: '/mcp-standard/list_tools', token: ws.viewer.token });
    expect(res.status).toBe(200);
    expect(res.body.tools.filter((x: Record<string, unknown>) => 'outputSchema' in x)).toEqual([]);
  });
});

describe('structured content of a value that is not an object', () => {
  it('is { result }, and the outputSchema says so', () => {
    const tags = defineTool({
      name: 'tag_names',
      title: 'Tag names',
      category: 'tool',
      description: 'A tool that answers an array, which MCP structured content cannot be on its own.',
      input: z.object({}),
      output: z.array(z.string()),
      annotations: READ,
      handler: async () => ['ops', 'docs'],
    });
    const schema = new ToolRegistry([tags]).outputSchema('tag_names');
    expect(schema).toMatchObject({ type: 'object', properties: { result: { type: 'array' } }, required: ['result'] });
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(ajv.validate(schema, toolResult(['ops', 'docs']).structuredContent)).toBe(true);
  });
});
