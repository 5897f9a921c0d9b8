import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJwtSecret, TokenIssuer } from '../../src/areas/auth/tokens.js';
import { createResearchHandler, RESEARCH_JOB_KIND } from '../../src/areas/research/research.runner.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { Worker } from '../../src/jobs/worker.js';
import { toolRegistry } from '../../src/mcp/registry.js';
import { createTestApp, type Response, type TestApp } from '../helpers/app.js';
import { addMember, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';

/**
 * Every tool of the catalog through `/api/mcp-standard/call_tool`: at least one success (result and state read back)
 * and one error (status and code as REST answers), in one story that builds on itself.
 */

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let extra: TestUser;
const s: Record<string, string> = {};
const W = () => s.ws;
const unknownId = 'no-such-id';

type Who = 'admin' | 'editor' | 'viewer' | 'outsider';
interface Case {
  tool: string;
  as: Who;
  args: () => Record<string, unknown>;
  /** A success: checks the structured result (and reads state back). */
  ok?: (out: any) => void | Promise<void>;
  /** An error: the status and code expected. */
  error?: [number, string];
  /** What to note before the call (a step of the story, not a tool call). */
  before?: () => Promise<void>;
}

/** Categories whose tools are exercised through call_tool by their own area's tests (memory and knowledge search, exports, invitations, webhooks, notifications; templates in test/mcp/templates.test.ts, through the SDK client). */
const COVERED_ELSEWHERE = new Set(['memory', 'knowledge', 'export', 'invitation', 'webhook', 'notification', 'template']);

async function call(who: Who | TestUser, name: string, args: Record<string, unknown>): Promise<Response> {
  const user = typeof who === 'string' ? ws[who] : who;
  return t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: user.token, body: { name, arguments: args } });
}

/** Calls a tool expecting success and returns the structured result. */
async function ok(who: Who, name: string, args: Record<string, unknown>) {
  const res = await call(who, name, args);
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.structuredContent;
}

const markdownOf = async (pageId: string) => (await ok('viewer', 'page_get', { pageId })).markdown as string;

const cases: Case[] = [
  // --- workspaces
  {
    tool: 'workspace_list',
    as: 'viewer',
    args: () => ({}),
    ok: (o) => expect(o.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: W(), role: 'viewer' })])),
  },
  { tool: 'workspace_list', as: 'viewer', args: () => ({ bogus: 1 }), error: [422, 'VALIDATION_ERROR'] },
  { tool: 'workspace_get', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o).toMatchObject({ id: W(), memberCount: 3 }) },
  { tool: 'workspace_get', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'workspace_create',
    as: 'outsider',
    before: async () => {
      s.hostname = `side-${randomUUID().slice(0, 8)}`;
    },
    args: () => ({ name: 'Side project', hostname: s.hostname }),
    ok: (o) => expect(o).toMatchObject({ name: 'Side project', hostname: s.hostname, memberCount: 1 }),
  },
  { tool: 'workspace_create', as: 'editor', args: () => ({ name: 'Again', hostname: s.hostname }), error: [409, 'ALREADY_EXISTS'] },
  {
    tool: 'workspace_update',
    as: 'admin',
    args: () => ({ workspaceId: W(), description: 'Our team' }),
    ok: async (o) => {
      expect(o.description).toBe('Our team');
      expect((await ok('viewer', 'workspace_get', { workspaceId: W() })).description).toBe('Our team');
    },
  },
  { tool: 'workspace_update', as: 'editor', args: () => ({ workspaceId: W(), description: 'x' }), error: [403, 'FORBIDDEN'] },
  { tool: 'workspace_member_list', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o.total).toBe(3) },
  { tool: 'workspace_member_list', as: 'viewer', args: () => ({ workspaceId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'workspace_member_add',
    as: 'admin',
    args: () => ({ workspaceId: W(), userId: extra.id, role: 'viewer' }),
    ok: async (o) => {
      // Adding an account invites it: Extra joins on accepting.
      expect(o).toMatchObject({ status: 'invited', invitation: { email: extra.email, role: 'viewer' } });
      const accepted = await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${o.invitation.id}/accept`, token: extra.token });
      expect(accepted.body.data).toMatchObject({ role: 'viewer', user: { id: extra.id } });
    },
  },
  { tool: 'workspace_member_add', as: 'editor', args: () => ({ workspaceId: W(), userId: extra.id, role: 'admin' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'workspace_member_update',
    as: 'admin',
    args: () => ({ workspaceId: W(), userId: extra.id, role: 'editor' }),
    ok: (o) => expect(o).toMatchObject({ id: extra.id, role: 'editor' }),
  },
  { tool: 'workspace_member_update', as: 'viewer', args: () => ({ workspaceId: W(), userId: extra.id, role: 'admin' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'workspace_member_remove',
    as: 'admin',
    args: () => ({ workspaceId: W(), userId: extra.id }),
    ok: async (o) => {
      expect(o).toEqual({ id: extra.id, deleted: true });
      expect((await ok('viewer', 'workspace_member_list', { workspaceId: W() })).total).toBe(3);
    },
  },
  { tool: 'workspace_member_remove', as: 'admin', args: () => ({ workspaceId: W(), userId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'audit_log_list',
    as: 'admin',
    args: () => ({ workspaceId: W(), action: ['member.added'], actorId: ws.admin.id, targetId: ws.editor.id }),
    ok: (o) =>
      expect(o).toMatchObject({ data: [{ action: 'member.added', target: { id: ws.editor.id }, details: { role: 'editor' } }], meta: { hasMore: false } }),
  },
  { tool: 'audit_log_list', as: 'editor', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },

  // --- users
  { tool: 'user_me', as: 'editor', args: () => ({ workspaceId: W() }), ok: (o) => expect(o).toMatchObject({ id: ws.editor.id, role: 'editor' }) },
  { tool: 'user_me', as: 'editor', args: () => ({ workspaceId: 42 }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'user_list',
    as: 'viewer',
    args: () => ({ workspaceId: W(), query: 'editor' }),
    ok: (o) => expect(o.items.map((u: { id: string }) => u.id)).toEqual([ws.editor.id]),
  },
  { tool: 'user_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'user_get',
    as: 'viewer',
    args: () => ({ userId: ws.editor.id, workspaceId: W() }),
    ok: (o) => expect(o).toMatchObject({ id: ws.editor.id, role: 'editor' }),
  },
  { tool: 'user_get', as: 'viewer', args: () => ({ userId: ws.outsider.id }), error: [404, 'NOT_FOUND'] },
  { tool: 'user_update', as: 'viewer', args: () => ({ userId: ws.viewer.id, name: 'Vera Viewer' }), ok: (o) => expect(o.name).toBe('Vera Viewer') },
  { tool: 'user_update', as: 'viewer', args: () => ({ userId: ws.editor.id, name: 'Hijack' }), error: [403, 'FORBIDDEN'] },

  // --- spaces
  {
    tool: 'space_create',
    as: 'admin',
    args: () => ({ workspaceId: W(), name: 'Docs' }),
    ok: (o) => {
      s.space = o.id;
      expect(o).toMatchObject({ name: 'Docs', slug: 'docs', visibility: 'public' });
    },
  },
  { tool: 'space_create', as: 'editor', args: () => ({ workspaceId: W(), name: 'Mine' }), error: [403, 'FORBIDDEN'] },
  { tool: 'space_list', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o.items.map((x: { id: string }) => x.id)).toContain(s.space) },
  { tool: 'space_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  { tool: 'space_get', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: s.space }), ok: (o) => expect(o).toMatchObject({ id: s.space, pageCount: 0 }) },
  { tool: 'space_get', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'space_update',
    as: 'admin',
    args: () => ({ workspaceId: W(), spaceId: s.space, description: 'Team docs' }),
    ok: (o) => expect(o.description).toBe('Team docs'),
  },
  { tool: 'space_update', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: s.space, name: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'space_member_add',
    as: 'admin',
    args: () => ({ workspaceId: W(), spaceId: s.space, userIds: [ws.viewer.id], role: 'viewer' }),
    ok: (o) => expect(o.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: ws.viewer.id, role: 'viewer' })])),
  },
  {
    tool: 'space_member_add',
    as: 'viewer',
    args: () => ({ workspaceId: W(), spaceId: s.space, userIds: [ws.viewer.id], role: 'admin' }),
    error: [403, 'FORBIDDEN'],
  },
  {
    tool: 'space_member_list',
    as: 'viewer',
    args: () => ({ spaceId: s.space }),
    ok: (o) => expect(o.items.map((m: { id: string }) => m.id)).toContain(ws.viewer.id),
  },
  { tool: 'space_member_list', as: 'viewer', args: () => ({ spaceId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'space_permission_set',
    as: 'admin',
    args: () => ({ workspaceId: W(), spaceId: s.space, targetId: ws.editor.id, role: 'editor' }),
    ok: (o) => expect(o).toMatchObject({ targetId: ws.editor.id, role: 'editor', isGroup: false }),
  },
  {
    tool: 'space_permission_set',
    as: 'viewer',
    args: () => ({ workspaceId: W(), spaceId: s.space, targetId: ws.viewer.id, role: 'admin' }),
    error: [403, 'FORBIDDEN'],
  },
  {
    tool: 'space_permission_list',
    as: 'viewer',
    args: () => ({ spaceId: s.space }),
    ok: (o) => expect(o.items.map((p: { targetId: string }) => p.targetId)).toEqual(expect.arrayContaining([ws.editor.id, ws.viewer.id])),
  },
  { tool: 'space_permission_list', as: 'viewer', args: () => ({ spaceId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'space_member_remove',
    as: 'admin',
    args: () => ({ spaceId: s.space, userId: ws.viewer.id }),
    ok: async (o) => {
      expect(o).toEqual({ id: ws.viewer.id, deleted: true });
      const perms = await ok('admin', 'space_permission_list', { spaceId: s.space });
      expect(perms.items.map((p: { targetId: string }) => p.targetId)).not.toContain(ws.viewer.id);
    },
  },
  { tool: 'space_member_remove', as: 'admin', args: () => ({ spaceId: s.space, userId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'space_delete',
    as: 'admin',
    before: async () => {
      s.tempSpace = (await ok('admin', 'space_create', { workspaceId: W(), name: 'Temp' })).id;
    },
    args: () => ({ workspaceId: W(), spaceId: s.tempSpace }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.tempSpace, deleted: true });
      expect((await call('admin', 'space_get', { workspaceId: W(), spaceId: s.tempSpace })).status).toBe(404);
    },
  },
  { tool: 'space_delete', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: s.space }), error: [403, 'FORBIDDEN'] },

  // --- groups
  {
    tool: 'group_create',
    as: 'admin',
    args: () => ({ workspaceId: W(), name: 'Writers' }),
    ok: (o) => {
      s.group = o.id;
      expect(o).toMatchObject({ name: 'Writers', memberCount: 0 });
    },
  },
  { tool: 'group_create', as: 'admin', args: () => ({ workspaceId: W(), name: 'writers' }), error: [409, 'ALREADY_EXISTS'] },
  { tool: 'group_list', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o.items.map((g: { id: string }) => g.id)).toContain(s.group) },
  { tool: 'group_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  { tool: 'group_get', as: 'viewer', args: () => ({ groupId: s.group }), ok: (o) => expect(o).toMatchObject({ id: s.group, members: [] }) },
  { tool: 'group_get', as: 'viewer', args: () => ({ groupId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'group_update',
    as: 'admin',
    args: () => ({ groupId: s.group, description: 'People who write' }),
    ok: (o) => expect(o.description).toBe('People who write'),
  },
  { tool: 'group_update', as: 'editor', args: () => ({ groupId: s.group, name: 'Mine' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'group_member_add',
    as: 'admin',
    args: () => ({ groupId: s.group, userIds: [ws.editor.id] }),
    ok: (o) => expect(o.members.map((m: { id: string }) => m.id)).toEqual([ws.editor.id]),
  },
  { tool: 'group_member_add', as: 'admin', args: () => ({ groupId: s.group, userIds: [ws.outsider.id] }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'group_member_remove',
    as: 'admin',
    args: () => ({ groupId: s.group, userId: ws.editor.id }),
    ok: (o) => expect(o).toEqual({ id: ws.editor.id, deleted: true }),
  },
  { tool: 'group_member_remove', as: 'admin', args: () => ({ groupId: s.group, userId: ws.editor.id }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'group_delete',
    as: 'admin',
    args: () => ({ groupId: s.group }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.group, deleted: true });
      expect((await call('admin', 'group_get', { groupId: s.group })).status).toBe(404);
    },
  },
  { tool: 'group_delete', as: 'admin', args: () => ({ groupId: s.group }), error: [404, 'NOT_FOUND'] },

  // --- pages (agents write Markdown)
  {
    tool: 'page_create',
    as: 'editor',
    args: () => ({ workspaceId: W(), spaceId: s.space, title: 'Onboarding', markdown: '# Welcome\n\nHello **world**, read the handbook.' }),
    ok: async (o) => {
      s.page = o.id;
      expect(o).toMatchObject({ title: 'Onboarding', spaceId: s.space, parentId: null });
      expect(o.content).toBeUndefined();
      expect(await markdownOf(o.id)).toContain('Hello **world**');
      s.child = (
        await ok('editor', 'page_create', { workspaceId: W(), spaceId: s.space, title: 'Laptop setup', markdown: 'Install things.', parentId: s.page })
      ).id;
    },
  },
  { tool: 'page_create', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: s.space, title: 'Nope', markdown: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'page_list',
    as: 'viewer',
    args: () => ({ workspaceId: W(), spaceId: s.space, limit: 1 }),
    ok: (o) => {
      expect(o).toMatchObject({ total: 2, page: 1, limit: 1, hasMore: true });
      expect(Object.keys(o.items[0]).sort()).toEqual(['icon', 'id', 'parentId', 'spaceId', 'title', 'updatedAt']);
    },
  },
  { tool: 'page_list', as: 'viewer', args: () => ({ workspaceId: W(), spaceId: s.space, limit: 1000 }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'page_get',
    as: 'viewer',
    args: () => ({ pageId: s.page }),
    ok: async (o) => {
      expect(o).toMatchObject({ id: s.page, title: 'Onboarding' });
      expect(o.markdown).toContain('# Welcome');
      expect(o.content).toBeUndefined();
      const tree = await ok('viewer', 'page_get', { pageId: s.page, format: 'json' });
      expect(tree.content.type).toBe('doc');
      expect(tree.markdown).toBeUndefined();
    },
  },
  { tool: 'page_get', as: 'viewer', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_update',
    as: 'editor',
    args: () => ({ pageId: s.page, title: 'Onboarding guide', markdown: 'Second draft.' }),
    ok: async (o) => {
      expect(o.title).toBe('Onboarding guide');
      expect((await markdownOf(s.page)).trim()).toBe('Second draft.');
    },
  },
  { tool: 'page_update', as: 'viewer', args: () => ({ pageId: s.page, markdown: 'vandalism' }), error: [403, 'FORBIDDEN'] },
  { tool: 'page_update', as: 'editor', args: () => ({ pageId: s.page, parentId: null }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'page_move',
    as: 'editor',
    args: () => ({ pageId: s.child, parentId: null, afterId: s.page }),
    ok: async (o) => {
      expect(o.parentId).toBeNull();
      const roots = await ok('viewer', 'page_list', { workspaceId: W(), spaceId: s.space, parentId: 'null' });
      expect(roots.items.map((p: { id: string }) => p.id)).toEqual([s.page, s.child]);
    },
  },
  { tool: 'page_move', as: 'editor', args: () => ({ pageId: s.child, parentId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_history',
    as: 'viewer',
    args: () => ({ pageId: s.page }),
    ok: (o) => {
      expect(o.total).toBe(2);
      expect(o.items.map((h: { version: number }) => h.version)).toEqual([2, 1]);
      s.firstVersion = o.items[1].id;
    },
  },
  { tool: 'page_history', as: 'viewer', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_history_get',
    as: 'viewer',
    args: () => ({ pageId: s.page, historyId: s.firstVersion }),
    ok: (o) => {
      expect(o).toMatchObject({ id: s.firstVersion, version: 1, title: 'Onboarding' });
      expect(o.markdown).toContain('Hello **world**');
    },
  },
  { tool: 'page_history_get', as: 'viewer', args: () => ({ pageId: s.page, historyId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_restore',
    as: 'editor',
    args: () => ({ pageId: s.page, historyId: s.firstVersion }),
    ok: async (o) => {
      expect(o.title).toBe('Onboarding');
      expect(await markdownOf(s.page)).toContain('Hello **world**');
      expect((await ok('viewer', 'page_history', { pageId: s.page })).total).toBe(3);
    },
  },
  { tool: 'page_restore', as: 'viewer', args: () => ({ pageId: s.page, historyId: s.firstVersion }), error: [403, 'FORBIDDEN'] },
  // --- page restrictions (their own tests: test/restrictions/api.test.ts)
  { tool: 'page_access_get', as: 'viewer', args: () => ({ pageId: s.page }), ok: (o) => expect(o).toMatchObject({ pageId: s.page, restricted: false }) },
  { tool: 'page_access_get', as: 'viewer', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_restrict',
    as: 'editor',
    args: () => ({
      pageId: s.page,
      grants: [
        { userId: ws.editor.id, role: 'editor' },
        { userId: ws.viewer.id, role: 'viewer' },
        { userId: ws.admin.id, role: 'editor' },
      ],
    }),
    ok: (o) => expect(o).toMatchObject({ restricted: true, restriction: { pageId: s.page } }),
  },
  { tool: 'page_restrict', as: 'viewer', args: () => ({ pageId: s.page, grants: [{ userId: ws.viewer.id, role: 'editor' }] }), error: [403, 'FORBIDDEN'] },
  { tool: 'page_unrestrict', as: 'editor', args: () => ({ pageId: s.page }), ok: (o) => expect(o).toMatchObject({ restricted: false, restriction: null }) },
  { tool: 'page_unrestrict', as: 'viewer', args: () => ({ pageId: s.page }), error: [403, 'FORBIDDEN'] },
  // --- public shares (their own tests: test/shares/)
  { tool: 'share_create', as: 'editor', args: () => ({ pageId: s.page }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'share_create',
    as: 'editor',
    before: async () => {
      await ok('admin', 'workspace_update', { workspaceId: W(), settings: { allowPublicPages: true } });
    },
    args: () => ({ pageId: s.page, includeSubtree: false, allowIndexing: false }),
    ok: (o) => {
      expect(o).toMatchObject({ share: { pageId: s.page, includeSubtree: false }, url: expect.stringMatching(/\/s\/[A-Za-z0-9_-]{20,}$/) });
      s.share = o.share.id;
    },
  },
  { tool: 'share_list', as: 'admin', args: () => ({ workspaceId: W() }), ok: (o) => expect(o.items).toMatchObject([{ id: s.share, pageId: s.page }]) },
  { tool: 'share_list', as: 'editor', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  { tool: 'share_revoke', as: 'viewer', args: () => ({ shareId: s.share }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'share_revoke',
    as: 'editor',
    args: () => ({ shareId: s.share }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.share, revoked: true });
      expect((await ok('admin', 'share_list', { workspaceId: W() })).items).toEqual([]);
    },
  },
  {
    tool: 'page_delete',
    as: 'editor',
    args: () => ({ pageId: s.child }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.child, deleted: true });
      const gone = await call('viewer', 'page_get', { pageId: s.child });
      expect(gone.status).toBe(410);
      expect(gone.body.error.code).toBe('DELETED');
    },
  },
  { tool: 'page_delete', as: 'viewer', args: () => ({ pageId: s.page }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'page_trash_list',
    as: 'viewer',
    args: () => ({ workspaceId: W() }),
    ok: (o) => {
      expect(o.total).toBe(1);
      expect(o.items[0]).toMatchObject({ id: s.child, title: 'Laptop setup', purgeAt: expect.any(String) });
    },
  },
  { tool: 'page_trash_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'page_recover',
    as: 'editor',
    args: () => ({ pageId: s.child }),
    ok: async (o) => {
      expect(o.id).toBe(s.child);
      expect((await markdownOf(s.child)).trim()).toBe('Install things.');
    },
  },
  { tool: 'page_recover', as: 'editor', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  // --- duplicate, favourites and recent pages (their own tests: test/pages/duplicate.test.ts, favorites-recent.test.ts)
  {
    tool: 'page_duplicate',
    as: 'editor',
    args: () => ({ pageId: s.child, title: 'Catalog copy' }),
    ok: async (o) => {
      expect(o).toMatchObject({ title: 'Catalog copy', spaceId: s.space });
      expect((await markdownOf(o.id)).trim()).toBe('Install things.');
      // Out of the way of the search cases below.
      await ok('editor', 'page_delete', { pageId: o.id });
    },
  },
  { tool: 'page_duplicate', as: 'viewer', args: () => ({ pageId: s.child }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'page_favorite_add',
    as: 'viewer',
    args: () => ({ pageId: s.page }),
    ok: (o) => expect(o).toMatchObject({ pageId: s.page, favorite: true, favoritedAt: expect.any(String) }),
  },
  { tool: 'page_favorite_add', as: 'viewer', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_favorite_list',
    as: 'viewer',
    args: () => ({ workspaceId: W() }),
    ok: (o) => expect(o.items.map((p: { id: string }) => p.id)).toEqual([s.page]),
  },
  { tool: 'page_favorite_list', as: 'viewer', args: () => ({ workspaceId: W(), limit: 100_000 }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'page_favorite_remove',
    as: 'viewer',
    args: () => ({ pageId: s.page }),
    ok: async (o) => {
      expect(o).toMatchObject({ pageId: s.page, favorite: false });
      expect((await ok('viewer', 'page_favorite_list', { workspaceId: W() })).items).toEqual([]);
    },
  },
  { tool: 'page_favorite_remove', as: 'viewer', args: () => ({ pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'page_recent',
    as: 'viewer',
    args: () => ({ workspaceId: W() }),
    ok: (o) => {
      // Visits are noted for the web app's sessions only; an agent's reads are not visits.
      expect(o.visited).toEqual([]);
      expect(o.updated.map((p: { id: string }) => p.id)).toContain(s.child);
    },
  },
  { tool: 'page_recent', as: 'viewer', args: () => ({ workspaceId: W(), limit: 100_000 }), error: [422, 'VALIDATION_ERROR'] },

  // --- comments
  {
    tool: 'comment_create',
    as: 'editor',
    args: () => ({ workspaceId: W(), pageId: s.page, text: 'Should we link the handbook?' }),
    ok: (o) => {
      s.comment = o.id;
      expect(o).toMatchObject({ text: 'Should we link the handbook?', resolved: false, author: { id: ws.editor.id } });
    },
  },
  { tool: 'comment_create', as: 'viewer', args: () => ({ workspaceId: W(), pageId: s.page, text: 'hi' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'comment_list',
    as: 'viewer',
    args: () => ({ workspaceId: W(), pageId: s.page }),
    ok: (o) => expect(o.items.map((c: { id: string }) => c.id)).toEqual([s.comment]),
  },
  { tool: 'comment_list', as: 'viewer', args: () => ({ workspaceId: W(), pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  { tool: 'comment_get', as: 'viewer', args: () => ({ commentId: s.comment }), ok: (o) => expect(o.id).toBe(s.comment) },
  { tool: 'comment_get', as: 'viewer', args: () => ({ commentId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'comment_update',
    as: 'editor',
    args: () => ({ commentId: s.comment, text: 'Link the handbook.' }),
    ok: (o) => expect(o.text).toBe('Link the handbook.'),
  },
  { tool: 'comment_update', as: 'admin', args: () => ({ commentId: s.comment, text: 'Not mine' }), error: [403, 'FORBIDDEN'] },
  { tool: 'comment_resolve', as: 'editor', args: () => ({ workspaceId: W(), commentId: s.comment, resolved: true }), ok: (o) => expect(o.resolved).toBe(true) },
  {
    tool: 'comment_react',
    as: 'editor',
    args: () => ({ commentId: s.comment, emoji: '👍' }),
    ok: (o) => expect(o.reactions).toEqual([{ emoji: '👍', userIds: [expect.any(String)] }]),
  },
  { tool: 'comment_react', as: 'editor', args: () => ({ commentId: s.comment, emoji: 'thumbs up' }), error: [422, 'VALIDATION_ERROR'] },
  { tool: 'comment_resolve', as: 'viewer', args: () => ({ workspaceId: W(), commentId: s.comment, resolved: false }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'comment_delete',
    as: 'editor',
    args: () => ({ commentId: s.comment }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.comment, deleted: true });
      expect((await ok('viewer', 'comment_list', { workspaceId: W(), pageId: s.page })).total).toBe(0);
    },
  },
  { tool: 'comment_delete', as: 'editor', args: () => ({ commentId: unknownId }), error: [404, 'NOT_FOUND'] },

  // --- attachments
  {
    tool: 'attachment_upload',
    as: 'editor',
    args: () => ({
      workspaceId: W(),
      pageId: s.page,
      filename: 'notes.md',
      contentType: 'text/markdown',
      data: Buffer.from('line one\nline two: grüße\n').toString('base64'),
    }),
    ok: async (o) => {
      s.textFile = o.id;
      expect(o).toMatchObject({ filename: 'notes.md', contentType: 'text/markdown', size: 27 });
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
      s.binFile = (
        await ok('editor', 'attachment_upload', {
          workspaceId: W(),
          pageId: s.page,
          filename: 'dot.png',
          contentType: 'image/png',
          data: png.toString('base64'),
        })
      ).id;
    },
  },
  {
    tool: 'attachment_upload',
    as: 'viewer',
    args: () => ({ workspaceId: W(), pageId: s.page, filename: 'x.txt', contentType: 'text/plain', data: 'eA==' }),
    error: [403, 'FORBIDDEN'],
  },
  { tool: 'attachment_list', as: 'viewer', args: () => ({ workspaceId: W(), pageId: s.page }), ok: (o) => expect(o.total).toBe(2) },
  { tool: 'attachment_list', as: 'viewer', args: () => ({ workspaceId: W(), pageId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'attachment_get',
    as: 'viewer',
    args: () => ({ attachmentId: s.textFile }),
    ok: (o) => expect(o).toMatchObject({ id: s.textFile, pageId: s.page, sha256: expect.any(String) }),
  },
  { tool: 'attachment_get', as: 'viewer', args: () => ({ attachmentId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'attachment_read',
    as: 'viewer',
    args: () => ({ attachmentId: s.textFile }),
    ok: async (o) => {
      expect(o).toMatchObject({ id: s.textFile, filename: 'notes.md', text: 'line one\nline two: grüße\n', nextOffset: null });
      // paged by bytes, never splitting a character: "grü" ends inside ü's two bytes at 22
      const first = await ok('viewer', 'attachment_read', { attachmentId: s.textFile, maxBytes: 22 });
      expect(first).toMatchObject({ text: 'line one\nline two: gr', nextOffset: 21 });
      const rest = await ok('viewer', 'attachment_read', { attachmentId: s.textFile, offset: 21 });
      expect(rest).toMatchObject({ text: 'üße\n', nextOffset: null });
    },
  },
  { tool: 'attachment_read', as: 'viewer', args: () => ({ attachmentId: s.binFile }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'attachment_delete',
    as: 'editor',
    args: () => ({ attachmentId: s.binFile }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.binFile, deleted: true });
      expect((await call('viewer', 'attachment_get', { attachmentId: s.binFile })).status).toBe(404);
    },
  },
  { tool: 'attachment_delete', as: 'editor', args: () => ({ attachmentId: unknownId }), error: [404, 'NOT_FOUND'] },

  // --- projects and tasks
  {
    tool: 'project_create',
    as: 'editor',
    args: () => ({ workspaceId: W(), name: 'Launch' }),
    ok: (o) => {
      s.project = o.id;
      expect(o).toMatchObject({ name: 'Launch', archived: false, taskCount: 0 });
    },
  },
  { tool: 'project_create', as: 'viewer', args: () => ({ workspaceId: W(), name: 'Nope' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'task_create',
    as: 'editor',
    args: () => ({
      workspaceId: W(),
      title: 'Write the launch post',
      priority: 'high',
      labels: ['docs', 'Docs'],
      projectId: s.project,
      bucket: 'now',
      dueDate: '2030-01-15',
    }),
    ok: (o) => {
      s.task = o.id;
      expect(o).toMatchObject({ status: 'todo', priority: 'high', labels: ['docs'], bucket: 'now', dueDate: '2030-01-15', project: { id: s.project } });
    },
  },
  { tool: 'task_create', as: 'viewer', args: () => ({ workspaceId: W(), title: 'Nope' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'task_list',
    as: 'viewer',
    args: () => ({ workspaceId: W(), status: 'todo,in_progress', projectId: s.project }),
    ok: (o) => {
      expect(o).toMatchObject({ total: 1, page: 1, hasMore: false });
      expect(o.items[0].id).toBe(s.task);
    },
  },
  { tool: 'task_list', as: 'viewer', args: () => ({ workspaceId: W(), status: 'blocked' }), error: [422, 'VALIDATION_ERROR'] },
  { tool: 'task_get', as: 'viewer', args: () => ({ taskId: s.task }), ok: (o) => expect(o).toMatchObject({ id: s.task, labels: ['docs'] }) },
  { tool: 'task_get', as: 'viewer', args: () => ({ taskId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'task_update',
    as: 'editor',
    args: () => ({ taskId: s.task, status: 'in_progress', description: 'Draft in **Markdown**' }),
    ok: (o) => expect(o).toMatchObject({ status: 'in_progress', description: 'Draft in **Markdown**' }),
  },
  { tool: 'task_update', as: 'editor', args: () => ({ taskId: s.task, dueDate: '2030-02-30' }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'task_assign',
    as: 'editor',
    args: () => ({ taskId: s.task, assigneeId: ws.editor.id }),
    ok: (o) => expect(o).toMatchObject({ assigneeId: ws.editor.id, assignee: { id: ws.editor.id } }),
  },
  { tool: 'task_assign', as: 'viewer', args: () => ({ taskId: s.task, assigneeId: ws.viewer.id }), error: [403, 'FORBIDDEN'] },
  { tool: 'task_triage_summary', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o).toEqual({ now: 1, next: 0, later: 0, none: 0 }) },
  { tool: 'task_triage_summary', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'task_complete',
    as: 'editor',
    args: () => ({ taskId: s.task }),
    ok: async (o) => {
      expect(o).toMatchObject({ status: 'done', completedAt: expect.any(String) });
      expect((await ok('viewer', 'task_get', { taskId: s.task })).status).toBe('done');
    },
  },
  { tool: 'task_complete', as: 'editor', args: () => ({ taskId: unknownId }), error: [404, 'NOT_FOUND'] },
  { tool: 'label_list', as: 'viewer', args: () => ({ workspaceId: W() }), ok: (o) => expect(o.items).toEqual([{ name: 'docs', count: 1 }]) },
  { tool: 'label_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'task_delete',
    as: 'editor',
    before: async () => {
      s.task2 = (await ok('editor', 'task_create', { workspaceId: W(), title: 'Throwaway' })).id;
    },
    args: () => ({ taskId: s.task2 }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.task2, deleted: true });
      expect((await call('viewer', 'task_get', { taskId: s.task2 })).status).toBe(404);
    },
  },
  { tool: 'task_delete', as: 'viewer', args: () => ({ taskId: s.task }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'project_list',
    as: 'viewer',
    args: () => ({ workspaceId: W() }),
    ok: (o) => expect(o.items).toEqual([expect.objectContaining({ id: s.project, taskCount: 1 })]),
  },
  { tool: 'project_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  { tool: 'project_get', as: 'viewer', args: () => ({ projectId: s.project }), ok: (o) => expect(o).toMatchObject({ id: s.project, name: 'Launch' }) },
  { tool: 'project_get', as: 'viewer', args: () => ({ projectId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'project_update',
    as: 'editor',
    args: () => ({ projectId: s.project, description: 'Q3 launch' }),
    ok: (o) => expect(o.description).toBe('Q3 launch'),
  },
  { tool: 'project_update', as: 'viewer', args: () => ({ projectId: s.project, name: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'project_archive',
    as: 'editor',
    args: () => ({ projectId: s.project }),
    ok: async (o) => {
      expect(o.archived).toBe(true);
      expect((await ok('viewer', 'project_list', { workspaceId: W() })).total).toBe(0);
      expect((await ok('viewer', 'project_list', { workspaceId: W(), includeArchived: true })).total).toBe(1);
    },
  },
  { tool: 'project_archive', as: 'viewer', args: () => ({ projectId: s.project }), error: [403, 'FORBIDDEN'] },
  { tool: 'project_unarchive', as: 'editor', args: () => ({ projectId: s.project }), ok: (o) => expect(o.archived).toBe(false) },
  { tool: 'project_unarchive', as: 'editor', args: () => ({ projectId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'project_delete',
    as: 'editor',
    before: async () => {
      s.project2 = (await ok('editor', 'project_create', { workspaceId: W(), name: 'Scratch' })).id;
    },
    args: () => ({ projectId: s.project2 }),
    ok: (o) => expect(o).toEqual({ id: s.project2, deleted: true }),
  },
  { tool: 'project_delete', as: 'viewer', args: () => ({ projectId: s.project }), error: [403, 'FORBIDDEN'] },

  // --- goals
  {
    tool: 'goal_create',
    as: 'editor',
    args: () => ({ workspaceId: W(), title: 'Ship v1', horizon: 'mid', keywords: ['launch'] }),
    ok: (o) => {
      s.goal = o.id;
      expect(o).toMatchObject({ title: 'Ship v1', horizon: 'mid', taskCount: 0, progress: 0 });
    },
  },
  { tool: 'goal_create', as: 'viewer', args: () => ({ workspaceId: W(), title: 'x', horizon: 'short' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'goal_link_task',
    as: 'editor',
    args: () => ({ workspaceId: W(), goalId: s.goal, taskId: s.task }),
    ok: async (o) => {
      expect(o).toEqual({ success: true, goal: { id: s.goal, taskCount: 1 } });
      expect(await ok('viewer', 'goal_get', { workspaceId: W(), goalId: s.goal, includeTasks: true })).toMatchObject({
        progress: 100,
        tasks: [{ id: s.task, status: 'done' }],
      });
    },
  },
  { tool: 'goal_link_task', as: 'editor', args: () => ({ workspaceId: W(), goalId: s.goal, taskId: unknownId }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'goal_list',
    as: 'viewer',
    args: () => ({ workspaceId: W(), horizon: 'mid', includeTasks: true }),
    ok: (o) => {
      expect(o).toMatchObject({ total: 1, offset: 0, hasMore: false });
      expect(o.items[0]).toMatchObject({ id: s.goal, tasks: [{ id: s.task }] });
    },
  },
  { tool: 'goal_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'goal_get',
    as: 'viewer',
    args: () => ({ workspaceId: W(), goalId: s.goal }),
    ok: (o) => {
      expect(o).toMatchObject({ id: s.goal, taskCount: 1 });
      expect(o.tasks).toBeUndefined();
    },
  },
  { tool: 'goal_get', as: 'viewer', args: () => ({ workspaceId: W(), goalId: unknownId }), error: [404, 'NOT_FOUND'] },
  { tool: 'goal_update', as: 'editor', args: () => ({ workspaceId: W(), goalId: s.goal, horizon: 'long' }), ok: (o) => expect(o.horizon).toBe('long') },
  { tool: 'goal_update', as: 'viewer', args: () => ({ workspaceId: W(), goalId: s.goal, title: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'goal_unlink_task',
    as: 'editor',
    args: () => ({ workspaceId: W(), goalId: s.goal, taskId: s.task }),
    ok: (o) => expect(o).toEqual({ success: true, goal: { id: s.goal, taskCount: 0 } }),
  },
  { tool: 'goal_unlink_task', as: 'editor', args: () => ({ workspaceId: W(), goalId: s.goal, taskId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'goal_delete',
    as: 'editor',
    args: () => ({ workspaceId: W(), goalId: s.goal }),
    ok: async (o) => {
      expect(o).toEqual({ success: true });
      expect((await ok('viewer', 'task_get', { taskId: s.task })).id).toBe(s.task);
    },
  },
  { tool: 'goal_delete', as: 'editor', args: () => ({ workspaceId: W(), goalId: s.goal }), error: [404, 'NOT_FOUND'] },

  // --- search
  {
    tool: 'search_query',
    as: 'viewer',
    args: () => ({ workspaceId: W(), query: 'handbook' }),
    ok: (o) => expect(o.items).toEqual([expect.objectContaining({ type: 'page', id: s.page, title: 'Onboarding' })]),
  },
  { tool: 'search_query', as: 'outsider', args: () => ({ workspaceId: W(), query: 'handbook' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'search_suggest',
    as: 'viewer',
    args: () => ({ workspaceId: W(), query: 'onboa' }),
    ok: (o) => expect(o.items).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'page', id: s.page })])),
  },
  { tool: 'search_suggest', as: 'viewer', args: () => ({ workspaceId: W(), query: '   ' }), error: [422, 'VALIDATION_ERROR'] },

  // --- bug reports
  {
    tool: 'bug_report_create',
    as: 'admin',
    args: () => ({ workspaceId: W(), title: 'Search misses titles', description: 'Steps…' }),
    ok: (o) => {
      s.bug = o.id;
      expect(o).toMatchObject({ title: 'Search misses titles', source: 'user:command', severity: 'medium', status: 'open' });
      expect(o.userJourney.recentActions.length).toBeGreaterThan(0);
      expect(o.userJourney.recentActions[0].source).toBe('mcp');
    },
  },
  { tool: 'bug_report_create', as: 'viewer', args: () => ({ workspaceId: W(), title: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'bug_report_auto',
    as: 'viewer',
    args: () => ({ workspaceId: W(), source: 'auto:agent', errorMessage: 'Tool page_get timed out', errorCode: 'TIMEOUT' }),
    ok: async (o) => {
      expect(o).toMatchObject({ source: 'auto:agent', status: 'open', occurrenceCount: 1, deduplicated: false });
      const again = await ok('viewer', 'bug_report_auto', { workspaceId: W(), source: 'auto:agent', errorMessage: 'Tool page_get timed out' });
      expect(again).toMatchObject({ id: o.id, occurrenceCount: 2, deduplicated: true });
    },
  },
  { tool: 'bug_report_auto', as: 'viewer', args: () => ({ workspaceId: W(), source: 'user:command', errorMessage: 'x' }), error: [422, 'VALIDATION_ERROR'] },
  {
    tool: 'bug_report_list',
    as: 'admin',
    args: () => ({ workspaceId: W(), source: 'user:command' }),
    ok: (o) => expect(o).toMatchObject({ items: [{ id: s.bug }], page: 1, hasMore: false }),
  },
  { tool: 'bug_report_list', as: 'viewer', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'bug_report_get',
    as: 'admin',
    args: () => ({ bugReportId: s.bug }),
    ok: (o) => expect(o).toMatchObject({ id: s.bug, reporter: { id: ws.admin.id } }),
  },
  { tool: 'bug_report_get', as: 'admin', args: () => ({ bugReportId: unknownId }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'bug_report_update',
    as: 'admin',
    args: () => ({ bugReportId: s.bug, status: 'resolved' }),
    ok: (o) => expect(o).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String) }),
  },
  { tool: 'bug_report_update', as: 'viewer', args: () => ({ bugReportId: s.bug, status: 'closed' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'bug_report_delete',
    as: 'admin',
    args: () => ({ bugReportId: s.bug }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.bug, deleted: true });
      expect((await call('admin', 'bug_report_get', { bugReportId: s.bug })).status).toBe(404);
    },
  },
  { tool: 'bug_report_delete', as: 'admin', args: () => ({ bugReportId: unknownId }), error: [404, 'NOT_FOUND'] },

  // --- research
  {
    tool: 'research_create',
    as: 'editor',
    args: () => ({ workspaceId: W(), topic: 'onboarding handbook', sources: ['docs'], outputMode: 'brief', timeBudget: 5, spaceId: s.space }),
    ok: (o) => {
      s.research = o.id;
      expect(o).toMatchObject({ topic: 'onboarding handbook', status: 'pending', sources: ['docs'], targetSpaceId: s.space });
    },
  },
  { tool: 'research_create', as: 'viewer', args: () => ({ workspaceId: W(), topic: 'x' }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'research_status',
    as: 'viewer',
    args: () => ({ workspaceId: W(), jobId: s.research }),
    ok: (o) => expect(o).toMatchObject({ id: s.research, status: 'pending', progress: 0 }),
  },
  { tool: 'research_status', as: 'viewer', args: () => ({ workspaceId: W(), jobId: unknownId }), error: [404, 'NOT_FOUND'] },
  { tool: 'research_report', as: 'viewer', args: () => ({ workspaceId: W(), jobId: s.research }), error: [404, 'NOT_FOUND'] },
  {
    tool: 'research_report',
    as: 'viewer',
    before: runResearchJobs,
    args: () => ({ workspaceId: W(), jobId: s.research }),
    ok: (o) => {
      expect(o).toMatchObject({
        id: s.research,
        topic: 'onboarding handbook',
        summary: expect.any(String),
        content: expect.any(String),
        pageId: expect.any(String),
      });
    },
  },
  {
    tool: 'research_list',
    as: 'viewer',
    args: () => ({ workspaceId: W() }),
    ok: (o) => expect(o).toMatchObject({ total: 1, offset: 0, items: [{ id: s.research, status: 'completed' }] }),
  },
  { tool: 'research_list', as: 'outsider', args: () => ({ workspaceId: W() }), error: [403, 'FORBIDDEN'] },
  {
    tool: 'research_cancel',
    as: 'editor',
    before: async () => {
      s.research2 = (await ok('editor', 'research_create', { workspaceId: W(), topic: 'never mind', sources: ['docs'] })).id;
    },
    args: () => ({ workspaceId: W(), jobId: s.research2 }),
    ok: async (o) => {
      expect(o).toEqual({ id: s.research2, status: 'cancelled', partialResults: true });
      // Read back by its creator: the default Research space is private to them (issue 11).
      expect((await ok('editor', 'research_status', { workspaceId: W(), jobId: s.research2 })).status).toBe('cancelled');
    },
  },
  { tool: 'research_cancel', as: 'editor', args: () => ({ workspaceId: W(), jobId: unknownId }), error: [404, 'NOT_FOUND'] },

  // --- discovery
  {
    tool: 'tool_search',
    as: 'viewer',
    args: () => ({ query: 'move a page to another parent', limit: 3 }),
    ok: (o) => {
      expect(o.items[0]).toMatchObject({ name: 'page_move', category: 'page', inputSchema: { type: 'object' } });
      expect(o.total).toBeLessThanOrEqual(3);
    },
  },
  { tool: 'tool_search', as: 'viewer', args: () => ({ query: '' }), error: [422, 'VALIDATION_ERROR'] },
];

/** Runs the queued research jobs to completion, as the worker process would. */
async function runResearchJobs() {
  const env = {
    config: t.config,
    tokens: new TokenIssuer(loadJwtSecret(t.config.JWT_SECRET, t.config.DATA_DIR), t.config.JWT_TTL_S),
    blobs: createBlobStore(t.config),
  };
  const worker = new Worker({
    db: t.database.db,
    env,
    handlers: new Map([[RESEARCH_JOB_KIND, createResearchHandler(env)]]),
    concurrency: 1,
    pollMs: 20,
    leaseMs: 30_000,
  });
  worker.start();
  try {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const job = await ok('viewer', 'research_status', { workspaceId: W(), jobId: s.research });
      if (!['pending', 'running'].includes(job.status)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  s.ws = ws.workspace.id;
  extra = await createUser(t, 'Extra');
});
afterAll(() => t.close());

describe('every tool through call_tool', () => {
  for (const c of cases) {
    const label = c.error ? `${c.tool} as ${c.as} → ${c.error[0]} ${c.error[1]}` : `${c.tool} as ${c.as}`;
    it(label, async () => {
      if (c.before) await c.before();
      const args = c.args();
      const res = await call(c.as, c.tool, args);
      if (c.error) {
        expect(res.body.error?.code, JSON.stringify(res.body)).toBe(c.error[1]);
        expect(res.status).toBe(c.error[0]);
        expect(typeof res.body.error.message).toBe('string');
        if (res.status === 422) expect(res.body.error.details.field, JSON.stringify(res.body)).toEqual(expect.any(String));
      } else {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.isError).toBe(false);
        expect(res.body.content).toEqual([{ type: 'text', text: JSON.stringify(res.body.structuredContent) }]);
        await c.ok?.(res.body.structuredContent);
      }
    });
  }

  it('covers every tool of the catalog with a success and an error', () => {
    // Read from the case list, not from what ran before: this holds alone too (say, under `-t`); each case is its own test.
    const planned = (name: string, error: boolean) => cases.some((c) => c.tool === name && Boolean(c.error) === error);
    const missing = toolRegistry()
      .tools.filter((tool) => !COVERED_ELSEWHERE.has(tool.category))
      .map((tool) => tool.name)
      .filter((name) => !(planned(name, false) && planned(name, true)));
    expect(missing).toEqual([]);
  });
});

describe('same answer as REST', () => {
  // Its own space and page, so these hold whether or not the story above ran.
  const own: Record<string, string> = {};
  beforeAll(async () => {
    const space = await t.request({
      method: 'POST',
      url: '/api/v1/spaces',
      token: ws.admin.token,
      body: { workspaceId: W(), name: 'REST parity', visibility: 'public' },
    });
    expect(space.status, JSON.stringify(space.body)).toBe(201);
    own.space = space.body.data.id;
    const page = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.admin.token,
      body: { workspaceId: W(), spaceId: own.space, title: 'Parity', markdown: 'x' },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    own.page = page.body.data.id;
  });

  it('a domain error has the status and code the REST endpoint gives', async () => {
    const pairs: Array<[Response, Response]> = [
      [await call('viewer', 'page_get', { pageId: unknownId }), await t.request({ url: `/api/v1/pages/${unknownId}`, token: ws.viewer.token })],
      [
        await call('viewer', 'page_update', { pageId: own.page, title: 'x' }),
        await t.request({ method: 'PUT', url: `/api/v1/pages/${own.page}`, token: ws.viewer.token, body: { title: 'x' } }),
      ],
      [
        await call('viewer', 'task_create', { workspaceId: W(), title: 'x' }),
        await t.request({ method: 'POST', url: '/api/v1/tasks', token: ws.viewer.token, body: { workspaceId: W(), title: 'x' } }),
      ],
      [
        await call('outsider', 'space_list', { workspaceId: W() }),
        await t.request({ url: '/api/v1/spaces', token: ws.outsider.token, query: { workspaceId: W() } }),
      ],
      [
        await call('viewer', 'goal_get', { workspaceId: W(), goalId: unknownId }),
        await t.request({ url: `/api/workspaces/${W()}/goals/${unknownId}`, token: ws.viewer.token }),
      ],
    ];
    for (const [tool, rest] of pairs) {
      expect(tool.status).toBe(rest.status);
      expect(tool.body.error.code).toBe(rest.body.error.code);
    }
  });

  it('a member added later acts with their own role', async () => {
    const late = await createUser(t, 'Late');
    expect((await call(late, 'space_list', { workspaceId: W() })).status).toBe(403);
    await addMember(t, W(), ws.admin, late, 'viewer');
    expect((await call(late, 'space_list', { workspaceId: W() })).status).toBe(200);
    expect((await call(late, 'page_create', { workspaceId: W(), spaceId: own.space, title: 'x', markdown: 'x' })).status).toBe(403);
  });
});
