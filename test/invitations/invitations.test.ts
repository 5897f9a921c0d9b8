import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { expectError, invite, tokenOf } from './helpers.js';

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
const PUBLIC_URL = 'https://kb.example.test';
let n = 0;
const newEmail = (label = 'guest') => `${label.toLowerCase()}-${Date.now().toString(36)}-${++n}@example.test`;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  ws = await workspaceWithRoles(t);
});
afterAll(() => t.close());

const list = (user: TestUser, workspaceId = ws.workspace.id) => t.request({ url: `/api/v1/workspaces/${workspaceId}/invitations`, token: user.token });
const preview = (token: string) => t.request({ url: `/api/v1/invitations/${token}` });
const accept = (token: string, body: unknown = {}, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  t.request({ method: 'POST', url: `/api/v1/invitations/${token}/accept`, body, ...opts });

async function auditOf(targetId: string) {
  const rows = await t.database.db.selectFrom('auditLog').selectAll().where('targetId', '=', targetId).orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => ({ action: r.action, workspaceId: r.workspaceId, actorId: r.actorId, details: r.details }));
}

describe('inviting', () => {
  it('answers the one-time link under PUBLIC_URL (not mailed without SMTP_URL), lists it without the token, and previews it publicly', async () => {
    const email = newEmail('mixed');
    const created = await invite(t, ws.admin, ws.workspace.id, `  ${email.toUpperCase()} `, 'editor');
    expect(created.url).toMatch(new RegExp(`^${PUBLIC_URL}/invite/[\\w-]{43}$`));
    expect(created.mailed).toBe(false);
    expect(created).not.toHaveProperty('mailError');
    expect(created.invitation).toEqual({
      id: expect.any(String),
      workspaceId: ws.workspace.id,
      email,
      role: 'editor',
      status: 'pending',
      invitedBy: { id: ws.admin.id, name: 'Admin' },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const days = (Date.parse((created.invitation as any).expiresAt) - Date.parse((created.invitation as any).createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const listed = await list(ws.admin);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(created.invitation);
    expect(JSON.stringify(listed.body)).not.toContain(tokenOf(created.url));
    const stored = await t.database.db.selectFrom('invitations').select('tokenHash').where('id', '=', created.invitation.id).executeTakeFirstOrThrow();
    expect(stored.tokenHash).not.toContain(tokenOf(created.url));

    const seen = await preview(tokenOf(created.url));
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual({
      workspace: { id: ws.workspace.id, name: 'Acme', hostname: ws.workspace.hostname },
      inviter: { name: 'Admin' },
      email,
      role: 'editor',
      expiresAt: (created.invitation as any).expiresAt,
      accountExists: false,
    });
    expect(await auditOf(created.invitation.id)).toEqual([
      { action: 'invitation.created', workspaceId: ws.workspace.id, actorId: ws.admin.id, details: { email, role: 'editor' } },
    ]);
  });

  it('refuses bad input, members already in, and everyone but the workspace’s admins', async () => {
    const url = `/api/v1/workspaces/${ws.workspace.id}/invitations`;
    expectError(await t.request({ method: 'POST', url, token: ws.admin.token, body: { email: 'not-an-email', role: 'editor' } }), 422, 'VALIDATION_ERROR', {
      field: 'email',
    });
    expectError(await t.request({ method: 'POST', url, token: ws.admin.token, body: { email: newEmail(), role: 'owner' } }), 422, 'VALIDATION_ERROR', {
      field: 'role',
    });
    expectError(await t.request({ method: 'POST', url, token: ws.admin.token, body: { role: 'viewer' } }), 400, 'MISSING_REQUIRED', { field: 'email' });
    expectError(
      await t.request({ method: 'POST', url, token: ws.admin.token, body: { email: ws.viewer.email.toUpperCase(), role: 'viewer' } }),
      409,
      'ALREADY_EXISTS',
      {
        field: 'email',
      },
    );
    for (const who of [ws.editor, ws.viewer, ws.outsider]) {
      expectError(await t.request({ method: 'POST', url, token: who.token, body: { email: newEmail(), role: 'viewer' } }), 403, 'FORBIDDEN');
      expectError(await list(who), 403, 'FORBIDDEN');
    }
    expectError(await t.request({ method: 'POST', url, body: { email: newEmail(), role: 'viewer' } }), 401, 'UNAUTHORIZED');
  });

  it('inviting the same address again replaces the open invitation: the old link dies', async () => {
    const email = newEmail();
    const first = await invite(t, ws.admin, ws.workspace.id, email, 'viewer');
    const second = await invite(t, ws.admin, ws.workspace.id, email, 'admin');
    expect(second.url).not.toBe(first.url);
    expectError(await preview(tokenOf(first.url)), 410, 'DELETED', { reason: 'revoked' });
    expect((await preview(tokenOf(second.url))).body.data.role).toBe('admin');
    const open = (await list(ws.admin)).body.data.filter((i: { email: string }) => i.email === email);
    expect(open.map((i: { id: string }) => i.id)).toEqual([second.invitation.id]);
    expect((await auditOf(first.invitation.id)).map((a) => a.action)).toEqual(['invitation.created', 'invitation.revoked']);
  });
});

describe('accepting', () => {
  it('without an account: name and password create it, start a session (cookie for a browser), and add the member with the invited role, once', async () => {
    const email = newEmail('newcomer');
    const { url, invitation } = await invite(t, ws.admin, ws.workspace.id, email, 'editor');
    const token = tokenOf(url);
    const before = (await t.request({ url: `/api/v1/workspaces/${ws.workspace.id}`, token: ws.admin.token })).body.data.memberCount;

    expectError(await accept(token, {}), 400, 'MISSING_REQUIRED', { field: 'name' });
    expectError(await accept(token, { name: 'Nia', password: 'short' }), 422, 'VALIDATION_ERROR', { field: 'password' });

    const res = await accept(token, { name: 'Nia', password: 'correct-horse' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      workspaceId: ws.workspace.id,
      role: 'editor',
      user: expect.objectContaining({ email, name: 'Nia' }),
      expiresAt: expect.any(String),
      csrfToken: expect.any(String),
    });
    expect(res.body.data).not.toHaveProperty('token');
    // PUBLIC_URL is https: the cookie is Secure, under the __Host- prefix.
    const cookie = /^__Host-kb_session=([^;]+);.*Secure/.exec(String(res.headers['set-cookie']))?.[1];
    expect(cookie).toBeTruthy();

    const me = await t.request({ url: '/api/v1/users/me', token: cookie });
    expect(me.body.data.email).toBe(email);
    const session = await t.request({ url: '/api/v1/auth/session', headers: { cookie: `__Host-kb_session=${cookie}` } });
    expect(session.status).toBe(200);
    const members = await t.request({ url: `/api/v1/workspaces/${ws.workspace.id}/members`, token: ws.admin.token });
    expect(members.body.data).toContainEqual(expect.objectContaining({ id: me.body.data.id, email, role: 'editor' }));
    const after = (await t.request({ url: `/api/v1/workspaces/${ws.workspace.id}`, token: ws.admin.token })).body.data.memberCount;
    expect(after).toBe(before + 1);
    const login = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email, password: 'correct-horse' } });
    expect(login.status).toBe(200);

    expectError(await accept(token, { name: 'Nia', password: 'correct-horse' }), 410, 'DELETED', { reason: 'accepted' });
    expectError(await accept(token, {}, { token: res.body.data.token }), 410, 'DELETED', { reason: 'accepted' });
    expectError(await preview(token), 410, 'DELETED', { reason: 'accepted' });
    expect((await list(ws.admin)).body.data.map((i: { id: string }) => i.id)).not.toContain(invitation.id);
    expect(await auditOf(invitation.id)).toEqual([
      expect.objectContaining({ action: 'invitation.created' }),
      { action: 'invitation.accepted', workspaceId: ws.workspace.id, actorId: me.body.data.id, details: { email, role: 'editor' } },
    ]);
    const added = await auditOf(me.body.data.id);
    expect(added).toContainEqual({
      action: 'member.added',
      workspaceId: ws.workspace.id,
      actorId: me.body.data.id,
      details: { role: 'editor', via: 'invitation' },
    });
  });

  it('a script asks for the token (`session: "token"`) and gets no cookie', async () => {
    const email = newEmail('script');
    const { url } = await invite(t, ws.admin, ws.workspace.id, email, 'viewer');
    const res = await accept(tokenOf(url), { name: 'Bot', password: 'correct-horse', session: 'token' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body.data).not.toHaveProperty('csrfToken');
    expect((await t.request({ url: '/api/v1/users/me', token: res.body.data.token })).body.data.email).toBe(email);
  });

  it('a bad bearer credential is 401, as everywhere: no account is made and the link stays usable', async () => {
    const email = newEmail('garbage');
    const { url } = await invite(t, ws.admin, ws.workspace.id, email, 'viewer');
    for (const authorization of ['Bearer not-a-credential', 'Bearer kb_no-such-key', 'Basic abc']) {
      const res = await accept(tokenOf(url), { name: 'Bot', password: 'correct-horse' }, { headers: { authorization } });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await preview(tokenOf(url))).status).toBe(200);
    // A stale browser cookie is not a credential anyone chose to send: the browser still creates the account.
    const res = await accept(tokenOf(url), { name: 'Bot', password: 'correct-horse' }, { headers: { cookie: 'kb_session=not.a.jwt' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('an existing account must sign in first, then accepts with its own session (no new session)', async () => {
    const existing = await createUser(t, 'Existing');
    const { url, invitation } = await invite(t, ws.admin, ws.workspace.id, existing.email, 'viewer');
    expect((await preview(tokenOf(url))).body.data.accountExists).toBe(true);
    expectError(await accept(tokenOf(url), { name: 'X', password: 'correct-horse' }), 409, 'ALREADY_EXISTS', { field: 'email' });
    const res = await accept(tokenOf(url), {}, { token: existing.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ workspaceId: ws.workspace.id, role: 'viewer', user: expect.objectContaining({ id: existing.id }) });
    expect(res.headers['set-cookie']).toBeUndefined();
    const spaces = await t.request({ url: '/api/v1/spaces', token: existing.token, query: { workspaceId: ws.workspace.id } });
    expect(spaces.status).toBe(200);
    expect((await auditOf(invitation.id)).map((a) => a.action)).toEqual(['invitation.created', 'invitation.accepted']);
  });

  it('signed in as another address: 403 email_mismatch, and the link still works for the invited one', async () => {
    const invited = await createUser(t, 'Invited');
    const { url } = await invite(t, ws.admin, ws.workspace.id, invited.email.toUpperCase(), 'editor');
    expectError(await accept(tokenOf(url), {}, { token: ws.outsider.token }), 403, 'FORBIDDEN', { reason: 'email_mismatch' });
    const members = await t.request({ url: `/api/v1/workspaces/${ws.workspace.id}/members`, token: ws.admin.token });
    expect(members.body.data.map((m: { id: string }) => m.id)).not.toContain(ws.outsider.id);
    const ok = await accept(tokenOf(url), {}, { token: invited.token });
    expect(ok.status).toBe(200);
    expect(ok.body.data.role).toBe('editor');
  });

  it('a read-only API key cannot accept', async () => {
    const invited = await createUser(t, 'Keyholder');
    const key = (await t.request({ method: 'POST', url: '/api/v1/api-keys', token: invited.token, body: { name: 'ro', access: 'read-only' } })).body.data.key;
    const { url } = await invite(t, ws.admin, ws.workspace.id, invited.email, 'viewer');
    expectError(await accept(tokenOf(url), {}, { token: key }), 403, 'FORBIDDEN', { reason: 'read_only_key' });
    const rw = await createApiKey(t, invited);
    expect((await accept(tokenOf(url), {}, { token: rw })).status).toBe(200);
  });

  it('refuses unknown, revoked and expired links', async () => {
    expectError(await preview('no-such-token'), 404, 'NOT_FOUND');
    expectError(await accept('no-such-token', { name: 'X', password: 'correct-horse' }), 404, 'NOT_FOUND');

    const revoked = await invite(t, ws.admin, ws.workspace.id, newEmail(), 'viewer');
    const del = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws.workspace.id}/invitations/${revoked.invitation.id}`, token: ws.admin.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: revoked.invitation.id, deleted: true } });
    expectError(await preview(tokenOf(revoked.url)), 410, 'DELETED', { reason: 'revoked' });
    expectError(await accept(tokenOf(revoked.url), { name: 'X', password: 'correct-horse' }), 410, 'DELETED', { reason: 'revoked' });
    expect((await list(ws.admin)).body.data.map((i: { id: string }) => i.id)).not.toContain(revoked.invitation.id);
    expect(await auditOf(revoked.invitation.id)).toContainEqual(
      expect.objectContaining({ action: 'invitation.revoked', actorId: ws.admin.id, details: { email: revoked.invitation.email, role: 'viewer' } }),
    );

    const expired = await invite(t, ws.admin, ws.workspace.id, newEmail(), 'viewer');
    await t.database.db.updateTable('invitations').set({ expiresAt: sql<Date>`now() - interval '1 minute'` }).where('id', '=', expired.invitation.id).execute();
    expectError(await preview(tokenOf(expired.url)), 410, 'DELETED', { reason: 'expired' });
    expectError(await accept(tokenOf(expired.url), { name: 'X', password: 'correct-horse' }), 410, 'DELETED', { reason: 'expired' });
    const listed = (await list(ws.admin)).body.data.find((i: { id: string }) => i.id === expired.invitation.id);
    expect(listed.status).toBe('expired');
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', expired.invitation.email).executeTakeFirst()).toBeUndefined();
  });
});

describe('revoking', () => {
  it('is for the workspace’s admins only, and an admin of another workspace can neither see nor revoke', async () => {
    const { invitation, url } = await invite(t, ws.admin, ws.workspace.id, newEmail(), 'viewer');
    const path = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/invitations/${invitation.id}`;
    expectError(await t.request({ method: 'DELETE', url: path(ws.workspace.id), token: ws.editor.token }), 403, 'FORBIDDEN');

    const other = await createUser(t, 'Other admin');
    const otherWs = await createWorkspace(t, other, 'Other');
    expectError(await list(other), 403, 'FORBIDDEN');
    expectError(await t.request({ method: 'DELETE', url: path(ws.workspace.id), token: other.token }), 403, 'FORBIDDEN');
    expectError(await t.request({ method: 'DELETE', url: path(otherWs.id), token: other.token }), 404, 'NOT_FOUND');
    expect((await list(other, otherWs.id)).body.data).toEqual([]);
    expect((await preview(tokenOf(url))).status).toBe(200);

    expectError(
      await t.request({ method: 'DELETE', url: path(ws.workspace.id).replace(invitation.id, 'no-such-id'), token: ws.admin.token }),
      404,
      'NOT_FOUND',
    );
    expect((await t.request({ method: 'DELETE', url: path(ws.workspace.id), token: ws.admin.token })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: path(ws.workspace.id), token: ws.admin.token })).status).toBe(200);
  });

  it('an accepted invitation cannot be revoked (remove the member instead)', async () => {
    const { invitation, url } = await invite(t, ws.admin, ws.workspace.id, newEmail(), 'viewer');
    expect((await accept(tokenOf(url), { name: 'Zed', password: 'correct-horse' })).status).toBe(200);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws.workspace.id}/invitations/${invitation.id}`, token: ws.admin.token });
    expectError(res, 409, 'ALREADY_EXISTS', { reason: 'accepted' });
  });
});

describe('MCP tools', () => {
  const call = (user: TestUser, name: string, args: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: user.token, body: { name, arguments: args } });

  it('invitation_create, invitation_list and invitation_revoke act like REST, errors included', async () => {
    const email = newEmail('agent');
    const created = await call(ws.admin, 'invitation_create', { workspaceId: ws.workspace.id, email, role: 'viewer' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const out = created.body.structuredContent;
    expect(out).toEqual({
      invitation: expect.objectContaining({ email, role: 'viewer', status: 'pending' }),
      url: expect.stringContaining(`${PUBLIC_URL}/invite/`),
      mailed: false,
    });
    expect((await preview(tokenOf(out.url))).status).toBe(200);

    const listed = await call(ws.admin, 'invitation_list', { workspaceId: ws.workspace.id });
    expect(listed.status).toBe(200);
    expect(listed.body.structuredContent.items).toContainEqual(out.invitation);

    const revoked = await call(ws.admin, 'invitation_revoke', { workspaceId: ws.workspace.id, id: out.invitation.id });
    expect(revoked.body.structuredContent).toEqual({ id: out.invitation.id, deleted: true });
    expectError(await preview(tokenOf(out.url)), 410, 'DELETED', { reason: 'revoked' });

    expectError(await call(ws.viewer, 'invitation_create', { workspaceId: ws.workspace.id, email: newEmail(), role: 'viewer' }), 403, 'FORBIDDEN');
    expectError(await call(ws.editor, 'invitation_list', { workspaceId: ws.workspace.id }), 403, 'FORBIDDEN');
    expectError(await call(ws.admin, 'invitation_revoke', { workspaceId: ws.workspace.id, id: 'no-such-id' }), 404, 'NOT_FOUND');
    expectError(await call(ws.admin, 'invitation_create', { workspaceId: ws.workspace.id, email: 'nope', role: 'viewer' }), 422, 'VALIDATION_ERROR');
  });
});
