import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { auditLog, recordAs } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /v1/audit-log: who may read it', () => {
  it('is for workspace admins: 403 for editors, viewers and outsiders, 404 for an unknown workspace, 400 without one', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    expect((await t.request({ url: '/api/v1/audit-log', token: admin.token, query: { workspaceId: workspace.id } })).status).toBe(200);
    for (const user of [editor, viewer, outsider]) {
      const denied = await t.request({ url: '/api/v1/audit-log', token: user.token, query: { workspaceId: workspace.id } });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('FORBIDDEN');
    }
    expect((await t.request({ url: '/api/v1/audit-log', token: admin.token, query: { workspaceId: 'nope' } })).status).toBe(404);
    const missing = await t.request({ url: '/api/v1/audit-log', token: admin.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'workspaceId' } });
    expect((await t.request({ url: '/api/v1/audit-log', query: { workspaceId: workspace.id } })).status).toBe(401);
    // The unversioned alias answers too.
    expect((await t.request({ url: '/api/audit-log', token: admin.token, query: { workspaceId: workspace.id } })).status).toBe(200);
  });

  it('shows a member’s sign-ins made since joining, and none of their other account events', async () => {
    const [ana, ben, zoe] = await Promise.all([createUser(t, 'Ana'), createUser(t, 'Ben'), createUser(t, 'Zoe')]);
    const ours = await createWorkspace(t, ana, 'Ours');
    const theirs = await createWorkspace(t, zoe, 'Theirs');
    /** Ben's account activity over HTTP: a sign-in, a failed sign-in, a key, a password change (then the new one). */
    let password = 'correct-horse';
    const activity = async (round: string) => {
      const login = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: ben.email, password } });
      expect(login.status).toBe(200);
      const wrong = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: ben.email, password: 'wrong-horse' } });
      expect(wrong.status).toBe(401);
      const key = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: login.body.data.token, body: { name: `ben-secret-${round}` } });
      expect(key.status).toBe(201);
      const next = `${password}-x`;
      const changed = await t.request({
        method: 'POST',
        url: '/api/v1/users/me/password',
        token: login.body.data.token,
        body: { currentPassword: password, newPassword: next },
      });
      expect(changed.status).toBe(200);
      password = next;
      return login.body.data;
    };
    const accountEvents = async (admin: typeof ana, workspaceId: string) =>
      (await auditLog(t, admin, workspaceId, { actorId: ben.id })).data.filter((e) => e.workspaceId === null);

    // Another workspace's event is that workspace's own.
    await recordAs(t, zoe.id, { workspaceId: theirs.id, action: 'member.added', targetType: 'user', targetId: zoe.id, details: { role: 'admin' } });
    // Before Ben joins: his signup, a sign-in, a failed sign-in, a key and a password change.
    await activity('before');
    await addMember(t, ours.id, ana, ben, 'editor');
    // Ana sees that he joined, and nothing of his account from before.
    expect(await accountEvents(ana, ours.id)).toEqual([]);
    expect((await auditLog(t, ana, ours.id, { targetId: ben.id })).data.map((e) => e.action)).toEqual(['member.added']);

    // After he joined: the same activity again. Only the sign-in shows.
    await activity('member');
    const seen = await accountEvents(ana, ours.id);
    expect(seen.map((e) => e.action)).toEqual(['auth.signin']);
    expect(seen[0]).toMatchObject({ actor: { id: ben.id, name: 'Ben' }, target: { type: 'session' }, details: { via: 'password' } });
    // Nothing in the log names his keys, however the admin filters.
    const everything = JSON.stringify((await auditLog(t, ana, ours.id, { limit: '200' })).data);
    expect(everything).not.toContain('ben-secret');
    for (const action of ['auth.signin_failed', 'auth.password_changed', 'api_key.created', 'auth.session_revoked'])
      expect((await auditLog(t, ana, ours.id, { action, actorId: ben.id })).data, action).toEqual([]);

    // Zoe administers a workspace Ben is not in: none of his account events, none of Ours' entries.
    const other = await auditLog(t, zoe, theirs.id);
    expect(other.data.some((e) => e.actor?.id === ben.id)).toBe(false);
    expect(other.data.filter((e) => e.workspaceId !== null).map((e) => e.action)).toEqual(['member.added']);
    expect((await auditLog(t, ana, ours.id)).data.some((e) => e.workspaceId === theirs.id)).toBe(false);

    // Once Ben has left, his sign-ins leave Ours' log (the workspace's own entries about him stay).
    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ours.id}/members/${ben.id}`, token: ana.token })).status).toBe(200);
    expect(await accountEvents(ana, ours.id)).toEqual([]);
    const after = await auditLog(t, ana, ours.id);
    expect(after.data.filter((e) => e.workspaceId !== null).map((e) => e.action)).toEqual(['member.removed', 'member.added']);
    // Rejoining starts a new period: what he did while away stays out.
    await activity('away');
    await addMember(t, ours.id, ana, ben, 'viewer');
    expect(await accountEvents(ana, ours.id)).toEqual([]);
  });

  it('shows a null actor for an unknown or deleted user, and a failed sign-in with no known user to nobody', async () => {
    const ana = await createUser(t, 'Ana');
    const ws = await createWorkspace(t, ana);
    await recordAs(t, null, { workspaceId: null, action: 'auth.signin_failed', details: { email: 'nobody@example.com' } });
    await recordAs(t, 'gone-user', { workspaceId: ws.id, action: 'share.created', targetType: 'share', targetId: 's1' });
    const log = await auditLog(t, ana, ws.id, { action: 'share.created,auth.signin_failed' });
    expect(log.data.map((e) => e.action)).toEqual(['share.created']);
    expect(log.data[0].actor).toBeNull();
  });
});

describe('GET /v1/audit-log: filters and pages', () => {
  /** The actions these tests write (signing in records sign-ins too, which these tests leave aside). */
  const OURS = 'api_key.created,api_key.revoked,auth.password_reset_link_created,member.added';

  async function busyWorkspace() {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const ws = workspace.id;
    await recordAs(t, editor.id, { workspaceId: ws, action: 'api_key.created', targetType: 'api_key', targetId: 'k1' });
    await recordAs(t, editor.id, { workspaceId: ws, action: 'api_key.revoked', targetType: 'api_key', targetId: 'k1' });
    await recordAs(t, admin.id, { workspaceId: ws, action: 'auth.password_reset_link_created', targetType: 'member', targetId: viewer.id });
    return { ws, admin, editor, viewer };
  }

  it('filters by action (one, repeated, comma list), actor, target and time', async () => {
    const { ws, admin, editor, viewer } = await busyWorkspace();
    const actions = async (query: Record<string, string | string[]>) => (await auditLog(t, admin, ws, { action: OURS, ...query })).data.map((e) => e.action);
    expect(await actions({ action: 'api_key.created' })).toEqual(['api_key.created']);
    expect(await actions({ action: ['api_key.created', 'auth.password_reset_link_created'] })).toEqual(['auth.password_reset_link_created', 'api_key.created']);
    expect(await actions({ action: 'api_key.created,api_key.revoked' })).toEqual(['api_key.revoked', 'api_key.created']);
    expect(await actions({ action: 'member.added' })).toEqual(['member.added', 'member.added']);
    expect(await actions({ actorId: admin.id })).toEqual(['auth.password_reset_link_created', 'member.added', 'member.added']);
    expect(await actions({ actorId: viewer.id })).toEqual([]);
    expect(await actions({ targetId: 'k1' })).toEqual(['api_key.revoked', 'api_key.created']);
    expect(await actions({ targetId: editor.id })).toEqual(['member.added']);
    expect(await actions({ targetId: viewer.id })).toEqual(['auth.password_reset_link_created', 'member.added']);
    expect(await actions({ actorId: editor.id, action: 'auth.password_reset_link_created' })).toEqual([]);

    const all = (await auditLog(t, admin, ws, { action: OURS })).data;
    expect(all).toHaveLength(5);
    expect(await actions({ since: '2000-01-01' })).toHaveLength(5);
    expect(await actions({ until: '2000-01-01T00:00:00Z' })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const boundary = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await recordAs(t, admin.id, { workspaceId: ws, action: 'auth.password_reset_link_created', targetType: 'member', targetId: editor.id });
    expect(await actions({ since: boundary })).toEqual(['auth.password_reset_link_created']);
    expect(await actions({ until: boundary })).toHaveLength(5);
    expect(await actions({ since: '2000-01-01', until: boundary.replace('Z', '+00:00'), actorId: editor.id })).toEqual(['api_key.revoked', 'api_key.created']);
  });

  it('refuses unknown actions and malformed filters with 400, naming the field', async () => {
    const { ws, admin } = await busyWorkspace();
    const bad = async (query: Record<string, string | string[]>) =>
      t.request({ url: '/api/v1/audit-log', token: admin.token, query: { workspaceId: ws, ...query } });
    for (const query of [{ action: 'page.deleted' }, { action: 'auth.signin,nope' }, { action: ['auth.signin', 'x'] }]) {
      const res = await bad(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'action' } });
      expect(res.body.error.message).toContain('must be one of');
    }
    expect((await bad({ since: 'yesterday' })).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'since' } });
    expect((await bad({ until: '2026-13-01' })).status).toBe(400);
    expect((await bad({ limit: '0' })).status).toBe(400);
    expect((await bad({ limit: '201' })).status).toBe(400);
    const cursor = await bad({ cursor: 'not-a-cursor' });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'cursor' } });
  });

  it('pages newest first by an opaque cursor, ties broken by id, with nothing skipped or repeated', async () => {
    const { ws, admin, editor } = await busyWorkspace();
    // Five entries in one transaction share one created_at: only the id orders them.
    await t.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 5; i++)
        await recordAs({ ...t, database: { ...t.database, db: trx } } as TestApp, editor.id, {
          workspaceId: ws,
          action: 'export.created',
          targetType: 'export',
          targetId: `e${i}`,
        });
    });
    const everything = (await auditLog(t, admin, ws, { limit: '200' })).data;
    expect(everything.length).toBeGreaterThanOrEqual(10);
    const keys = everything.map((e) => [e.createdAt, e.id].join(' '));
    expect(keys).toEqual([...keys].sort().reverse());

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await auditLog(t, admin, ws, { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(page.meta.limit).toBe(3);
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((e) => e.id));
      expect(page.meta.hasMore).toBe(page.meta.nextCursor !== null);
      cursor = page.meta.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(everything.length / 3));
    expect(seen).toEqual(everything.map((e) => e.id));

    // Filters hold across pages.
    const first = await auditLog(t, admin, ws, { limit: '2', action: 'export.created' });
    const second = await auditLog(t, admin, ws, { limit: '2', action: 'export.created', cursor: first.meta.nextCursor as string });
    const exports = everything.filter((e) => e.action === 'export.created').map((e) => e.id);
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual(exports.slice(0, 4));
    expect(second.meta.hasMore).toBe(true);
  });
});

describe('entries cannot be changed', () => {
  it('has no route that edits or deletes an entry', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const [entry] = (await auditLog(t, admin, workspace.id)).data;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [`/api/v1/audit-log/${entry.id}`, '/api/v1/audit-log', `/api/audit-log/${entry.id}`]) {
        const res = await t.request({ method, url, token: admin.token, query: { workspaceId: workspace.id }, body: { action: 'auth.signin' } });
        expect([404, 405], `${method} ${url}`).toContain(res.status);
      }
    }
    expect([404, 405]).toContain(
      (await t.request({ method: 'POST', url: '/api/v1/audit-log', token: admin.token, body: { workspaceId: workspace.id, action: 'auth.signin' } })).status,
    );
    expect((await auditLog(t, admin, workspace.id)).data[0]).toEqual(entry);
  });

  it('refuses an UPDATE through SQL (a trigger), leaving the entry as it was', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const [entry] = (await auditLog(t, admin, workspace.id)).data;
    await expect(sql`update audit_log set action = 'auth.signin', address = '10.0.0.1' where id = ${entry.id}`.execute(t.database.db)).rejects.toThrow(
      /audit_log entries cannot be changed/,
    );
    await expect(t.database.db.updateTable('auditLog').set({ details: '{}' }).where('workspaceId', '=', workspace.id).execute()).rejects.toThrow();
    expect((await auditLog(t, admin, workspace.id)).data[0]).toEqual(entry);
  });
});

describe('MCP tool audit_log_list', () => {
  it('reads the same log for admins, read-only, and refuses others like REST', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const call = (token: string, args: object) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token, body: { name: 'audit_log_list', arguments: args } });
    const res = await call(admin.token, { workspaceId: workspace.id, action: ['member.added'], limit: 1 });
    expect(res.status).toBe(200);
    expect(res.body.isError).toBe(false);
    const result = res.body.structuredContent;
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({ action: 'member.added', actor: { id: admin.id } });
    expect(result.meta).toMatchObject({ limit: 1, hasMore: true });
    expect((await call(admin.token, { workspaceId: workspace.id, action: 'nope' })).status).toBe(422);
    expect((await call(editor.token, { workspaceId: workspace.id })).status).toBe(403);

    const tools = await t.request({ method: 'POST', url: '/api/mcp-standard/get_tools_by_category', token: admin.token, body: { category: 'workspace' } });
    const tool = tools.body.tools.find((x: { name: string }) => x.name === 'audit_log_list');
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
  });
});
