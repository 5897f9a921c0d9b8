import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUrlOf } from '../../src/config.js';
import { mailerOf } from '../../src/mail/mailer.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { addMember, createApiKey, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://kb.example.com/' });
});
afterAll(() => t.close());

const RESET = '/api/v1/auth/password-reset';
const linkUrl = (workspaceId: string, userId: string) => `/api/v1/workspaces/${workspaceId}/members/${userId}/password-reset`;
const tokenOf = (url: string) => url.split('/reset-password/')[1] as string;
const me = (token: string) => t.request({ url: '/api/v1/users/me', token });

function expectDeadLink(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body.error).toEqual({
    code: 'INVALID_PARAMETER',
    message: 'This password-reset link is invalid, already used or expired; ask an admin for a new one',
    details: { field: 'token', reason: 'invalid_or_expired' },
  });
}

describe('a reset link', () => {
  it('is made by a workspace admin, works once, signs out every session of the member and signs them in', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const editorKey = await createApiKey(t, editor);
    const made = await t.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      data: { url: expect.stringMatching(/^https:\/\/kb\.example\.com\/reset-password\/[\w-]{43}$/), expiresAt: expect.any(String), mailed: false },
    });
    expect(publicUrlOf(t.config)).toBe('https://kb.example.com');
    const expiresIn = new Date(made.body.data.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);

    // Kept as a hash only.
    const token = tokenOf(made.body.data.url);
    const rows = await t.database.db.selectFrom('passwordResetLinks').selectAll().where('userId', '=', editor.id).execute();
    expect(rows).toMatchObject([{ tokenHash: createHash('sha256').update(token).digest('hex'), workspaceId: workspace.id, createdBy: admin.id, usedAt: null }]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const res = await t.request({ method: 'POST', url: RESET, body: { token, newPassword: 'reset-horse-1' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: expect.objectContaining({ id: editor.id, email: editor.email }),
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      expiresAt: expect.any(String),
    });
    expect((await me(editor.token)).status).toBe(401);
    expect((await me(res.body.data.token)).status).toBe(200);
    expect((await me(editorKey)).status).toBe(200);
    const sessions = await t.request({ url: '/api/v1/auth/sessions', token: res.body.data.token });
    expect(sessions.body.data).toMatchObject([{ via: 'reset', current: true }]);

    const login = (password: string) => t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: editor.email, password } });
    expect((await login('correct-horse')).status).toBe(401);
    expect((await login('reset-horse-1')).status).toBe(200);

    expectDeadLink(await t.request({ method: 'POST', url: RESET, body: { token, newPassword: 'reset-horse-2' } }));
    expect((await login('reset-horse-1')).status).toBe(200);

    const audit = await t.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('targetId', '=', editor.id)
      .where('action', 'like', 'auth.password%')
      .orderBy('createdAt')
      .execute();
    expect(audit).toMatchObject([
      { action: 'auth.password_reset_link_created', workspaceId: workspace.id, actorId: admin.id, targetType: 'member' },
      { action: 'auth.password_reset', workspaceId: null, actorId: editor.id, targetType: 'user', details: { sessionsRevoked: 1 } },
    ]);
  });

  it('answers an unknown, replaced or expired link the same way', async () => {
    const { workspace, admin, viewer } = await workspaceWithRoles(t);
    const make = async () => tokenOf((await t.request({ method: 'POST', url: linkUrl(workspace.id, viewer.id), token: admin.token })).body.data.url);
    const first = await make();
    const second = await make();
    expectDeadLink(await t.request({ method: 'POST', url: RESET, body: { token: first, newPassword: 'reset-horse-1' } }));
    expectDeadLink(await t.request({ method: 'POST', url: RESET, body: { token: 'no-such-token', newPassword: 'reset-horse-1' } }));

    await t.database.db
      .updateTable('passwordResetLinks')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('tokenHash', '=', createHash('sha256').update(second).digest('hex'))
      .execute();
    expectDeadLink(await t.request({ method: 'POST', url: RESET, body: { token: second, newPassword: 'reset-horse-1' } }));
    expect((await me(viewer.token)).status).toBe(200);

    const third = await make();
    const short = await t.request({ method: 'POST', url: RESET, body: { token: third, newPassword: 'short' } });
    expect(short.status).toBe(422);
    expect((await t.request({ method: 'POST', url: RESET, body: { token: third, newPassword: 'reset-horse-3' } })).status).toBe(200);
  });

  it('lets an account without a password (single sign-on) set one', async () => {
    const { workspace, admin, viewer } = await workspaceWithRoles(t);
    await t.database.db.updateTable('users').set({ passwordHash: null }).where('id', '=', viewer.id).execute();
    const made = await t.request({ method: 'POST', url: linkUrl(workspace.id, viewer.id), token: admin.token });
    expect((await t.request({ method: 'POST', url: RESET, body: { token: tokenOf(made.body.data.url), newPassword: 'first-password' } })).status).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: viewer.email, password: 'first-password' } })).status).toBe(200);
  });

  it('can open a browser session instead of answering a token', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const made = await t.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
    const body = { token: tokenOf(made.body.data.url), newPassword: 'cookie-horse', session: 'cookie' };
    const foreign = await t.request({ method: 'POST', url: RESET, body, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const res = await t.request({ method: 'POST', url: RESET, body });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user: expect.objectContaining({ id: editor.id }), expiresAt: expect.any(String), csrfToken: expect.any(String) });
    const cookie = /^__Host-kb_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] as string;
    const session = await t.request({ url: '/api/v1/auth/session', headers: { cookie: `__Host-kb_session=${cookie}` } });
    expect(session.status).toBe(200);
    expect(session.body.data.csrfToken).toBe(res.body.data.csrfToken);
  });
});

describe('who may make a reset link', () => {
  it('only an admin of the workspace, for one of its members, with a session token', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const refused = await t.request({ method: 'POST', url: linkUrl(workspace.id, viewer.id), token: editor.token });
    expect(refused.status).toBe(403);
    expect((await t.request({ method: 'POST', url: linkUrl(workspace.id, outsider.id), token: admin.token })).status).toBe(404);
    const key = await createApiKey(t, admin);
    const byKey = await t.request({ method: 'POST', url: linkUrl(workspace.id, viewer.id), token: key });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.details.reason).toBe('session_required');
    expect(await t.database.db.selectFrom('passwordResetLinks').select('id').where('userId', 'in', [viewer.id, outsider.id]).execute()).toEqual([]);
  });

  it('refuses a member who also belongs to a workspace the caller does not administer (member_of_other_workspace)', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const otherAdmin = await createUser(t, 'Other admin');
    const other = await createWorkspace(t, otherAdmin, 'Other team');
    await addMember(t, other.id, otherAdmin, editor, 'viewer');
    const res = await t.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'member_of_other_workspace' } });
    expect(await t.database.db.selectFrom('passwordResetLinks').select('id').where('userId', '=', editor.id).execute()).toEqual([]);

    // An admin of both workspaces may.
    await addMember(t, other.id, otherAdmin, admin, 'admin');
    expect((await t.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token })).status).toBe(201);
  });
});

describe('a link outlives none of its reasons (checked again when it is used)', () => {
  const use = (token: string) => t.request({ method: 'POST', url: RESET, body: { token, newPassword: 'taken-over-1' } });
  const make = async (workspaceId: string, admin: { token: string }, memberId: string) => {
    const made = await t.request({ method: 'POST', url: linkUrl(workspaceId, memberId), token: admin.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return tokenOf(made.body.data.url);
  };
  const login = (email: string, password: string) => t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email, password } });
  const linkRow = (token: string) =>
    t.database.db
      .selectFrom('passwordResetLinks')
      .select(['usedAt', 'voidedAt'])
      .where('tokenHash', '=', createHash('sha256').update(token).digest('hex'))
      .executeTakeFirstOrThrow();

  it('dies when the member joins a workspace its maker does not administer, and stays dead after they leave it', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const token = await make(workspace.id, admin, editor.id);
    const theirs = await createWorkspace(t, editor, 'Their own');
    expectDeadLink(await use(token));
    expect((await linkRow(token)).voidedAt).not.toBeNull();
    expect((await login(editor.email, 'correct-horse')).status).toBe(200);
    // Leaving that workspace again does not bring the link back.
    await t.database.db.deleteFrom('workspaces').where('id', '=', theirs.id).execute();
    expectDeadLink(await use(token));
  });

  it('dies when the member leaves the workspace (or is removed)', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const left = await make(workspace.id, admin, editor.id);
    const removed = await make(workspace.id, admin, viewer.id);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}/members/${editor.id}`, token: editor.token })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}/members/${viewer.id}`, token: admin.token })).status).toBe(200);
    for (const token of [left, removed]) {
      expect((await linkRow(token)).voidedAt).not.toBeNull();
      expectDeadLink(await use(token));
    }
    // Added back, the old links stay dead.
    await addMember(t, workspace.id, admin, editor, 'editor');
    expectDeadLink(await use(left));
    expect((await login(editor.email, 'correct-horse')).status).toBe(200);
  });

  it('dies when the member changes their password', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const token = await make(workspace.id, admin, editor.id);
    const changed = await t.request({
      method: 'POST',
      url: '/api/v1/users/me/password',
      token: editor.token,
      body: { currentPassword: 'correct-horse', newPassword: 'my-own-horse' },
    });
    expect(changed.status).toBe(200);
    expectDeadLink(await use(token));
    expect((await login(editor.email, 'my-own-horse')).status).toBe(200);
  });

  it('dies when its maker is no longer an admin of the workspace', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspace.id}/members/${editor.id}`, token: admin.token, body: { role: 'admin' } });
    const token = await make(workspace.id, editor, viewer.id);
    expect(
      (await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspace.id}/members/${editor.id}`, token: admin.token, body: { role: 'editor' } })).status,
    ).toBe(200);
    expectDeadLink(await use(token));
    expect((await login(viewer.email, 'correct-horse')).status).toBe(200);
  });

  it('the takeover of issue 29 fails: adding the victim by id only invites them, and no link can be made for a non-member', async () => {
    const attacker = await createUser(t, 'Mallory');
    const trap = await createWorkspace(t, attacker, 'Trap');
    const victim = await createUser(t, 'Victim');
    const added = await t.request({
      method: 'POST',
      url: `/api/v1/workspaces/${trap.id}/members`,
      token: attacker.token,
      body: { userId: victim.id, role: 'viewer' },
    });
    expect(added.status).toBe(202);
    const link = await t.request({ method: 'POST', url: linkUrl(trap.id, victim.id), token: attacker.token });
    expect(link.status).toBe(404);
  });
});

describe('mail', () => {
  it('mails the link to the member when SMTP_URL is set', async () => {
    const messages: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => {
          raw += chunk.toString();
        });
        stream.on('end', () => {
          messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    const mailing = await siblingApp(t, {}, { SMTP_URL });
    try {
      const { workspace, admin, editor } = await workspaceWithRoles(t);
      const made = await mailing.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
      expect(made.status).toBe(201);
      expect(made.body.data.mailed).toBe(true);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.to).toEqual([editor.email]);
      // Quoted-printable may wrap long lines: undo soft breaks and escapes before looking for the link.
      const text = (messages[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      expect(text).toContain(made.body.data.url);
      expect(text).toMatch(/Subject: Set a new password/);
    } finally {
      await mailing.app.close();
      mailerOf({ SMTP_URL, SMTP_FROM: '' })?.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

describe('OIDC_ONLY', () => {
  it('refuses reset links and their use with 403 password_login_disabled', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const made = await t.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
    const sso = await siblingApp(t, {}, { OIDC_ONLY: true });
    try {
      const link = await sso.request({ method: 'POST', url: linkUrl(workspace.id, editor.id), token: admin.token });
      const use = await sso.request({ method: 'POST', url: RESET, body: { token: tokenOf(made.body.data.url), newPassword: 'reset-horse-1' } });
      for (const res of [link, use]) {
        expect(res.status).toBe(403);
        expect(res.body.error.details.reason).toBe('password_login_disabled');
      }
    } finally {
      await sso.app.close();
    }
  });
});
