import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, type TestUser, verifyEmail } from '../helpers/factories.js';
import { expectError, invite, tokenOf } from './helpers.js';

/**
 * Adding an existing account to a workspace (issue 29): nobody is put in a workspace without their consent. The account
 * is invited and its holder accepts or declines from their own list; only an installation admin adds at once (the
 * single sign-on case is in test/auth/oidc.test.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://kb.test' });
});
afterAll(() => t.close());

const membersUrl = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/members`;
const add = (admin: TestUser, workspaceId: string, userId: string, role = 'editor', request = t.request) =>
  request({ method: 'POST', url: membersUrl(workspaceId), token: admin.token, body: { userId, role } });
const mine = (user: TestUser | string) => t.request({ url: '/api/v1/users/me/invitations', token: typeof user === 'string' ? user : user.token });
const memberIds = async (admin: TestUser, workspaceId: string) =>
  (await t.request({ url: membersUrl(workspaceId), token: admin.token })).body.data.map((m: { id: string }) => m.id) as string[];

async function team(name = 'Acme') {
  const admin = await createUser(t, `${name} admin`);
  const workspace = await createWorkspace(t, admin, name);
  return { admin, workspace };
}

describe('an admin adds an existing account by user id', () => {
  it('invites it (202 invited): it is no member until its holder accepts from their own list', async () => {
    const { admin, workspace } = await team();
    const victim = await createUser(t, 'Vic');
    const res = await add(admin, workspace.id, victim.id, 'admin');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toEqual({
      status: 'invited',
      invitation: expect.objectContaining({ workspaceId: workspace.id, email: victim.email, role: 'admin', status: 'pending' }),
      url: expect.stringMatching(/^http:\/\/kb\.test\/invite\/[\w-]{43}$/),
      mailed: false,
    });
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id]);
    // Not a member, so no admin of that workspace can make a reset link for the account (the takeover of issue 29).
    const link = await t.request({ method: 'POST', url: `${membersUrl(workspace.id)}/${victim.id}/password-reset`, token: admin.token });
    expectError(link, 404, 'NOT_FOUND');

    const listed = await mine(victim);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: res.body.data.invitation.id,
        workspace: { id: workspace.id, name: 'Acme', hostname: workspace.hostname },
        email: victim.email,
        role: 'admin',
        invitedBy: { id: admin.id, name: 'Acme admin' },
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    const accepted = await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${res.body.data.invitation.id}/accept`, token: victim.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toEqual({ workspaceId: workspace.id, role: 'admin', user: expect.objectContaining({ id: victim.id }) });
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id, victim.id]);
    expect((await mine(victim)).body.data).toEqual([]);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select(['action', 'actorId', 'details'])
      .where('workspaceId', '=', workspace.id)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ['invitation.created', admin.id],
      ['invitation.accepted', victim.id],
      ['member.added', victim.id],
    ]);
    expect(audit[0].details).toEqual({ email: victim.email, role: 'admin', userId: victim.id });
  });

  it('the invitation is for that account only: others neither see nor answer it, and its link needs that account', async () => {
    const { admin, workspace } = await team();
    const invited = await createUser(t, 'Ivy');
    const other = await createUser(t, 'Oz');
    const res = await add(admin, workspace.id, invited.id);
    const id = res.body.data.invitation.id;
    expect((await mine(other)).body.data).toEqual([]);
    expectError(await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${id}/accept`, token: other.token }), 404, 'NOT_FOUND');
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/users/me/invitations/${id}`, token: other.token }), 404, 'NOT_FOUND');
    const byLink = (token?: string, body: object = {}) =>
      t.request({ method: 'POST', url: `/api/v1/invitations/${tokenOf(res.body.data.url)}/accept`, token, body });
    expectError(await byLink(other.token), 403, 'FORBIDDEN', { reason: 'email_mismatch' });
    expectError(await byLink(undefined, { name: 'Squatter', password: 'correct-horse' }), 409, 'ALREADY_EXISTS');
    expectError(await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${id}/accept` }), 401, 'UNAUTHORIZED');
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id]);
    const ok = await byLink(invited.token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id, invited.id]);
  });

  it('its holder may decline: the invitation closes (its link answers 410 declined) and the audit log says so', async () => {
    const { admin, workspace } = await team();
    const invited = await createUser(t, 'Dee');
    const res = await add(admin, workspace.id, invited.id, 'viewer');
    const id = res.body.data.invitation.id;
    const declined = await t.request({ method: 'DELETE', url: `/api/v1/users/me/invitations/${id}`, token: invited.token });
    expect(declined.status).toBe(200);
    expect(declined.body).toEqual({ data: { id, deleted: true } });
    expect((await mine(invited)).body.data).toEqual([]);
    expectError(await t.request({ url: `/api/v1/invitations/${tokenOf(res.body.data.url)}` }), 410, 'DELETED', { reason: 'declined' });
    expectError(await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${id}/accept`, token: invited.token }), 404, 'NOT_FOUND');
    const admins = await t.request({ url: `/api/v1/workspaces/${workspace.id}/invitations`, token: admin.token });
    expect(admins.body.data.map((i: { id: string }) => i.id)).not.toContain(id);
    const entry = await t.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'invitation.declined')
      .where('targetId', '=', id)
      .executeTakeFirst();
    expect(entry).toMatchObject({ workspaceId: workspace.id, actorId: invited.id, details: { email: invited.email, role: 'viewer' } });
    // Asked again, they are invited again.
    expect((await add(admin, workspace.id, invited.id, 'viewer')).status).toBe(202);
  });

  it('keeps its refusals: 404 unknown user, 409 a member already, 403 for non-admins', async () => {
    const { admin, workspace } = await team();
    const member = await createUser(t, 'Mem');
    const outsider = await createUser(t, 'Out');
    expectError(await add(admin, workspace.id, 'no-such-user'), 404, 'NOT_FOUND');
    expectError(await add(admin, workspace.id, admin.id), 409, 'ALREADY_EXISTS', { field: 'userId' });
    expectError(await add(outsider, workspace.id, member.id), 403, 'FORBIDDEN');
    expect((await mine(member)).body.data).toEqual([]);
  });

  it('the MCP tool invites the same way', async () => {
    const { admin, workspace } = await team();
    const invited = await createUser(t, 'Tool');
    const res = await t.request({
      method: 'POST',
      url: '/api/mcp-standard/call_tool',
      token: admin.token,
      body: { name: 'workspace_member_add', arguments: { workspaceId: workspace.id, userId: invited.id, role: 'editor' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.structuredContent).toMatchObject({ status: 'invited', invitation: { email: invited.email, role: 'editor' }, mailed: false });
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id]);
    expect((await mine(invited)).body.data).toHaveLength(1);
  });

  it('its holder answers through MCP too: invitation_list_mine, invitation_accept and invitation_decline', async () => {
    const call = (user: TestUser, name: string, args: Record<string, unknown> = {}) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: user.token, body: { name, arguments: args } });
    const first = await team('First');
    const second = await team('Second');
    const agent = await createUser(t, 'Agent owner');
    const toFirst = (await add(first.admin, first.workspace.id, agent.id, 'viewer')).body.data.invitation.id;
    const toSecond = (await add(second.admin, second.workspace.id, agent.id)).body.data.invitation.id;

    const listed = await call(agent, 'invitation_list_mine');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.structuredContent.items.map((i: { id: string }) => i.id).sort()).toEqual([toFirst, toSecond].sort());
    expect(listed.body.structuredContent.items).toContainEqual(
      expect.objectContaining({ id: toFirst, role: 'viewer', workspace: expect.objectContaining({ id: first.workspace.id, name: 'First' }) }),
    );
    // Somebody else cannot answer the agent's invitation.
    expectError(await call(first.admin, 'invitation_accept', { id: toFirst }), 404, 'NOT_FOUND');

    const accepted = await call(agent, 'invitation_accept', { id: toFirst });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.structuredContent).toMatchObject({ workspaceId: first.workspace.id, role: 'viewer', user: { id: agent.id } });
    expect(await memberIds(first.admin, first.workspace.id)).toEqual([first.admin.id, agent.id]);

    const declined = await call(agent, 'invitation_decline', { id: toSecond });
    expect(declined.body.structuredContent).toEqual({ id: toSecond, deleted: true });
    expect(await memberIds(second.admin, second.workspace.id)).toEqual([second.admin.id]);
    expect((await call(agent, 'invitation_list_mine')).body.structuredContent).toEqual({ items: [], total: 0 });
    expectError(await call(agent, 'invitation_accept', { id: toSecond }), 404, 'NOT_FOUND');
  });
});

describe('an installation admin (INSTALL_ADMINS) adds at once', () => {
  it('201 with the member, once their own email is verified; unverified, the name in the setting is worth nothing', async () => {
    const boss = await createUser(t, 'Boss');
    const workspace = await createWorkspace(t, boss, 'Install');
    const newcomer = await createUser(t, 'New');
    const installed = await siblingApp(t, {}, { INSTALL_ADMINS: ` other@example.com, ${boss.email.toUpperCase()} ` });
    try {
      const unverified = await add(boss, workspace.id, newcomer.id, 'viewer', installed.request);
      expect(unverified.status).toBe(202);
      await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}/invitations/${unverified.body.data.invitation.id}`, token: boss.token });

      await verifyEmail(t, boss);
      const res = await add(boss, workspace.id, newcomer.id, 'viewer', installed.request);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toEqual({ id: newcomer.id, email: newcomer.email, name: 'New', avatarUrl: null, role: 'viewer', joinedAt: expect.any(String) });
      expect(await memberIds(boss, workspace.id)).toEqual([boss.id, newcomer.id]);
      const entry = await t.database.db
        .selectFrom('auditLog')
        .selectAll()
        .where('action', '=', 'member.added')
        .where('targetId', '=', newcomer.id)
        .executeTakeFirst();
      expect(entry).toMatchObject({ workspaceId: workspace.id, actorId: boss.id, details: { role: 'viewer', reason: 'install_admin' } });
    } finally {
      await installed.app.close();
    }
  });
});

describe('invitations to an email address in your own list', () => {
  it('show up (and can be accepted without the link) only once your email is verified', async () => {
    const { admin, workspace } = await team();
    const person = await createUser(t, 'Pia');
    const { invitation } = await invite(t, admin, workspace.id, person.email, 'editor');
    // Anyone can sign up with someone else's address: until it is verified, an invitation to it is answered through its link only.
    expect((await mine(person)).body.data).toEqual([]);
    expectError(await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${invitation.id}/accept`, token: person.token }), 404, 'NOT_FOUND');
    await verifyEmail(t, person);
    expect((await mine(person)).body.data.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
    const key = await createApiKey(t, person);
    const accepted = await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${invitation.id}/accept`, token: key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await memberIds(admin, workspace.id)).toEqual([admin.id, person.id]);
  });
});

describe('hourly invitation limits', () => {
  it('per inviter: 429 RATE_LIMITED with Retry-After past INVITATIONS_PER_USER_PER_HOUR, across workspaces and ways of inviting', async () => {
    const limited = await siblingApp(t, {}, { INVITATIONS_PER_USER_PER_HOUR: 3 });
    try {
      const { admin, workspace } = await team('Busy');
      const second = await createWorkspace(t, admin, 'Busy two');
      const someone = await createUser(t, 'Someone');
      const inviteAs = (workspaceId: string, email: string) =>
        limited.request({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/invitations`, token: admin.token, body: { email, role: 'viewer' } });
      expect((await inviteAs(workspace.id, 'a@limit.test')).status).toBe(201);
      expect((await inviteAs(second.id, 'b@limit.test')).status).toBe(201);
      expect((await add(admin, second.id, someone.id, 'viewer', limited.request)).status).toBe(202);
      const refused = await inviteAs(workspace.id, 'c@limit.test');
      expectError(refused, 429, 'RATE_LIMITED', { reason: 'too_many_invitations', limit: 3 });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3000);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(refused.body.error.details.retryAfter).toBe(retryAfter);
      expectError(await add(admin, workspace.id, (await createUser(t, 'Late')).id, 'viewer', limited.request), 429, 'RATE_LIMITED');
      const open = await t.request({ url: `/api/v1/workspaces/${workspace.id}/invitations`, token: admin.token });
      expect(open.body.data.map((i: { email: string }) => i.email)).toEqual(['a@limit.test']);
      // Counted from the rows of the last hour: once they are older, inviting works again.
      await t.database.db
        .updateTable('invitations')
        .set({ createdAt: new Date(Date.now() - 3601_000) } as never)
        .where('invitedBy', '=', admin.id)
        .execute();
      expect((await inviteAs(workspace.id, 'c@limit.test')).status).toBe(201);
    } finally {
      await limited.app.close();
    }
  });

  it('per workspace: past INVITATIONS_PER_WORKSPACE_PER_HOUR, whoever invites', async () => {
    const limited = await siblingApp(t, {}, { INVITATIONS_PER_WORKSPACE_PER_HOUR: 2 });
    try {
      const { admin, workspace } = await team('Crowd');
      const coAdmin = await createUser(t, 'Co');
      const joined = await add(admin, workspace.id, coAdmin.id, 'admin', limited.request);
      await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${joined.body.data.invitation.id}/accept`, token: coAdmin.token });
      const inviteAs = (who: TestUser, email: string) =>
        limited.request({ method: 'POST', url: `/api/v1/workspaces/${workspace.id}/invitations`, token: who.token, body: { email, role: 'viewer' } });
      expect((await inviteAs(coAdmin, 'x@crowd.test')).status).toBe(201);
      expectError(await inviteAs(coAdmin, 'y@crowd.test'), 429, 'RATE_LIMITED', { reason: 'too_many_workspace_invitations', limit: 2 });
      expectError(await inviteAs(admin, 'y@crowd.test'), 429, 'RATE_LIMITED');
      // Another workspace of the same admin is not held back.
      const elsewhere = await createWorkspace(t, admin, 'Elsewhere');
      const other = await limited.request({
        method: 'POST',
        url: `/api/v1/workspaces/${elsewhere.id}/invitations`,
        token: admin.token,
        body: { email: 'y@crowd.test', role: 'viewer' },
      });
      expect(other.status).toBe(201);
    } finally {
      await limited.app.close();
    }
  });
});
