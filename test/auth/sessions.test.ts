import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, type TestUser } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
const SESSIONS = '/api/v1/auth/sessions';

/** Signs in with a password from a given device and address; answers the session token. */
async function login(user: TestUser, userAgent: string, remoteAddress: string, password = 'correct-horse'): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    body: { email: user.email, password },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(res.status).toBe(200);
  return res.body.data.token;
}

const me = (token: string) => t.request({ url: '/api/v1/users/me', token });

async function auditOf(userId: string, action: string) {
  return t.database.db.selectFrom('auditLog').selectAll().where('actorId', '=', userId).where('action', '=', action).orderBy('createdAt').execute();
}

describe('listing sessions', () => {
  it('shows the current session and the others, with device, address and times; the sign-up is one of them', async () => {
    const ann = await createUser(t, 'Ann');
    const laptop = await login(ann, CHROME_LINUX, '10.0.0.1');
    await login(ann, FIREFOX_WINDOWS, '10.0.0.2');
    const res = await t.request({ url: SESSIONS, token: laptop });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    const current = res.body.data.filter((s: { current: boolean }) => s.current);
    expect(current).toEqual([
      {
        id: expect.any(String),
        device: 'Chrome on Linux',
        userAgent: CHROME_LINUX,
        address: '10.0.0.1',
        firstAddress: '10.0.0.1',
        via: 'password',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        expiresAt: expect.any(String),
        current: true,
      },
    ]);
    const other = res.body.data.find((s: { device: string }) => s.device === 'Firefox on Windows');
    expect(other).toMatchObject({ address: '10.0.0.2', via: 'password', current: false });
    expect(res.body.data.find((s: { via: string }) => s.via === 'signup')).toMatchObject({ current: false });
    expect(new Date(current[0].expiresAt).getTime() - new Date(current[0].createdAt).getTime()).toBeCloseTo(t.config.JWT_TTL_S * 1000, -4);
  });

  it('is for session tokens only: an API key gets 403 session_required', async () => {
    const bob = await createUser(t, 'Bob');
    const key = await createApiKey(t, bob);
    for (const call of [
      { url: SESSIONS },
      { method: 'DELETE' as const, url: SESSIONS },
      { method: 'DELETE' as const, url: `${SESSIONS}/whatever` },
      { method: 'POST' as const, url: '/api/v1/users/me/password', body: { currentPassword: 'correct-horse', newPassword: 'another-horse' } },
    ]) {
      const res = await t.request({ ...call, token: key });
      expect({ url: call.url, status: res.status, reason: res.body.error?.details?.reason }).toEqual({
        url: call.url,
        status: 403,
        reason: 'session_required',
      });
    }
  });
});

describe('signing sessions out', () => {
  it('signs out one session: its token is refused at once, the other keeps working; another user’s session is a 404', async () => {
    const cy = await createUser(t, 'Cy');
    const phone = await login(cy, FIREFOX_WINDOWS, '10.0.0.3');
    const list = await t.request({ url: SESSIONS, token: cy.token });
    const phoneSession = list.body.data.find((s: { device: string }) => s.device === 'Firefox on Windows');
    expect((await me(phone)).status).toBe(200); // cached as valid before the revocation

    const stranger = await createUser(t, 'Stranger');
    const foreign = await t.request({ method: 'DELETE', url: `${SESSIONS}/${phoneSession.id}`, token: stranger.token });
    expect(foreign.status).toBe(404);
    expect((await me(phone)).status).toBe(200);

    const res = await t.request({ method: 'DELETE', url: `${SESSIONS}/${phoneSession.id}`, token: cy.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: phoneSession.id, deleted: true } });
    const refused = await me(phone);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await me(cy.token)).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `${SESSIONS}/${phoneSession.id}`, token: cy.token })).status).toBe(404);
    const after = await t.request({ url: SESSIONS, token: cy.token });
    expect(after.body.data.map((s: { id: string }) => s.id)).not.toContain(phoneSession.id);
    const row = await t.database.db.selectFrom('sessions').select('revokedAt').where('id', '=', phoneSession.id).executeTakeFirstOrThrow();
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect(await auditOf(cy.id, 'auth.session_revoked')).toMatchObject([{ targetType: 'session', targetId: phoneSession.id, workspaceId: null }]);
  });

  it('signs out all other sessions by default, and every one with keepCurrent=false; API keys keep working', async () => {
    const di = await createUser(t, 'Di');
    const key = await createApiKey(t, di);
    const a = await login(di, CHROME_LINUX, '10.0.0.4');
    const b = await login(di, FIREFOX_WINDOWS, '10.0.0.5');
    for (const token of [di.token, a, b]) expect((await me(token)).status).toBe(200);

    const others = await t.request({ method: 'DELETE', url: SESSIONS, token: a });
    expect(others.status).toBe(200);
    expect(others.body).toEqual({ data: { revoked: 2, keptCurrent: true } });
    expect((await me(di.token)).status).toBe(401);
    expect((await me(b)).status).toBe(401);
    expect((await me(a)).status).toBe(200);
    expect((await t.request({ url: SESSIONS, token: a })).body.data).toHaveLength(1);

    const all = await t.request({ method: 'DELETE', url: SESSIONS, query: { keepCurrent: 'false' }, token: a });
    expect(all.body).toEqual({ data: { revoked: 1, keptCurrent: false } });
    expect((await me(a)).status).toBe(401);
    expect((await me(key)).status).toBe(200);
    expect(await auditOf(di.id, 'auth.session_revoked')).toMatchObject([
      { targetType: 'user', targetId: di.id, details: { count: 2, keptCurrent: true } },
      { targetType: 'user', targetId: di.id, details: { count: 1, keptCurrent: false } },
    ]);
  });

  it('DELETE /auth/session ends the session on the server, for a cookie and for a bearer token alike', async () => {
    const ed = await createUser(t, 'Ed');
    const opened = await t.request({ method: 'POST', url: '/api/v1/auth/session', body: { email: ed.email, password: 'correct-horse' } });
    const cookie = /^kb_session=([^;]+)/.exec(String(opened.headers['set-cookie']))?.[1] as string;
    const headers = { cookie: `kb_session=${cookie}`, 'x-csrf-token': opened.body.data.csrfToken };
    expect((await t.request({ url: '/api/v1/auth/session', headers: { cookie: headers.cookie } })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/api/v1/auth/session', headers })).status).toBe(200);
    expect((await t.request({ url: '/api/v1/auth/session', headers: { cookie: headers.cookie } })).status).toBe(401);
    expect((await me(cookie)).status).toBe(401);

    expect((await t.request({ method: 'DELETE', url: '/api/v1/auth/session', token: ed.token })).status).toBe(200);
    expect((await me(ed.token)).status).toBe(401);
    expect(await auditOf(ed.id, 'auth.signout')).toHaveLength(2);
  });

  it('another instance refuses a revoked session once its short cache lapses (at once when it had not cached it)', async () => {
    const fay = await createUser(t, 'Fay');
    const other = await login(fay, CHROME_LINUX, '10.0.0.6');
    const sibling = await siblingApp(t);
    try {
      await t.request({ method: 'DELETE', url: SESSIONS, token: fay.token });
      const res = await sibling.request({ url: '/api/v1/users/me', token: other });
      expect(res.status).toBe(401);
    } finally {
      await sibling.app.close();
    }
  });

  it('records when and where a session was last used, at most once a minute', async () => {
    const gus = await createUser(t, 'Gus');
    const sid = decodeJwt(gus.token).sid as string;
    const before = new Date(Date.now() - 5 * 60_000);
    await t.database.db.updateTable('sessions').set({ lastSeenAt: before }).where('id', '=', sid).execute();
    const sibling = await siblingApp(t); // a fresh cache reads the old last-seen time
    try {
      expect((await sibling.request({ url: '/api/v1/users/me', token: gus.token, remoteAddress: '10.9.9.9' })).status).toBe(200);
      await expect
        .poll(
          async () =>
            (await t.database.db.selectFrom('sessions').select(['lastSeenAt', 'lastAddress', 'firstAddress']).where('id', '=', sid).executeTakeFirstOrThrow())
              .lastAddress,
        )
        .toBe('10.9.9.9');
      const row = await t.database.db.selectFrom('sessions').select(['lastSeenAt', 'firstAddress']).where('id', '=', sid).executeTakeFirstOrThrow();
      expect(row.lastSeenAt.getTime()).toBeGreaterThan(before.getTime() + 60_000);
      expect(row.firstAddress).toBe('127.0.0.1');
    } finally {
      await sibling.app.close();
    }
  });

  it('prunes a user’s sessions that ended over 30 days ago when they sign in again', async () => {
    const max = await createUser(t, 'Max');
    const sid = decodeJwt(max.token).sid as string;
    await t.database.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 31 * 86_400_000) })
      .where('id', '=', sid)
      .execute();
    const recent = await login(max, CHROME_LINUX, '10.0.0.10');
    await t.request({ method: 'DELETE', url: SESSIONS, query: { keepCurrent: 'false' }, token: recent });
    await login(max, CHROME_LINUX, '10.0.0.11');
    const rows = await t.database.db.selectFrom('sessions').select(['id', 'revokedAt']).where('userId', '=', max.id).execute();
    expect(rows.map((r) => r.id)).not.toContain(sid);
    expect(rows).toHaveLength(2); // the one signed out just now is kept
  });

  it('refuses a token without a session id (issued before sessions were revocable)', async () => {
    const hal = await createUser(t, 'Hal');
    const now = Math.floor(Date.now() / 1000);
    const old = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(hal.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(t.config.JWT_SECRET));
    const res = await me(old);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('changing the password', () => {
  it('checks the current password, changes it, signs out the other sessions and keeps this one and the API keys', async () => {
    const ivy = await createUser(t, 'Ivy');
    const key = await createApiKey(t, ivy);
    const laptop = await login(ivy, CHROME_LINUX, '10.0.0.7');
    const url = '/api/v1/users/me/password';

    const wrong = await t.request({ method: 'POST', url, token: laptop, body: { currentPassword: 'wrong-horse', newPassword: 'brand-new-horse' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'currentPassword', reason: 'incorrect' } });
    expect((await me(ivy.token)).status).toBe(200);

    const short = await t.request({ method: 'POST', url, token: laptop, body: { currentPassword: 'correct-horse', newPassword: 'short' } });
    expect(short.status).toBe(422);
    expect(short.body.error.details.field).toBe('newPassword');

    const res = await t.request({ method: 'POST', url, token: laptop, body: { currentPassword: 'correct-horse', newPassword: 'brand-new-horse' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { changed: true, sessionsRevoked: 1 } });
    expect((await me(ivy.token)).status).toBe(401);
    expect((await me(laptop)).status).toBe(200);
    expect((await me(key)).status).toBe(200);

    const oldPassword = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: ivy.email, password: 'correct-horse' } });
    expect(oldPassword.status).toBe(401);
    await login(ivy, CHROME_LINUX, '10.0.0.8', 'brand-new-horse');
    expect(await auditOf(ivy.id, 'auth.password_changed')).toMatchObject([
      { workspaceId: null, targetType: 'user', targetId: ivy.id, details: { sessionsRevoked: 1 } },
    ]);
  });

  it('refuses an account without a password (single sign-on): it sets one through a reset link', async () => {
    const jo = await createUser(t, 'Jo');
    await t.database.db.updateTable('users').set({ passwordHash: null }).where('id', '=', jo.id).execute();
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/users/me/password',
      token: jo.token,
      body: { currentPassword: 'anything', newPassword: 'brand-new-horse' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.details.reason).toBe('no_password');
  });
});

describe('sign-in audit', () => {
  it('records sign-ins with how they happened, and failed ones with the email tried (naming the account only in the log)', async () => {
    const kim = await createUser(t, 'Kim');
    await login(kim, CHROME_LINUX, '10.0.1.1');
    expect((await auditOf(kim.id, 'auth.signin')).map((e) => (e.details as { via: string }).via)).toEqual(['signup', 'password']);
    const signin = (await auditOf(kim.id, 'auth.signin'))[1];
    expect(signin).toMatchObject({ workspaceId: null, targetType: 'session', address: '10.0.1.1', userAgent: CHROME_LINUX });

    const known = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: kim.email, password: 'wrong-horse' } });
    const unknownEmail = `nobody-${kim.id}@example.com`;
    const unknown = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: unknownEmail, password: 'wrong-horse' } });
    expect(known.status).toBe(401);
    expect(unknown.body).toEqual(known.body);
    expect(await auditOf(kim.id, 'auth.signin_failed')).toMatchObject([{ actorId: kim.id, details: { email: kim.email } }]);
    const anonymous = await t.database.db.selectFrom('auditLog').selectAll().where('action', '=', 'auth.signin_failed').where('actorId', 'is', null).execute();
    expect(anonymous.filter((e) => (e.details as { email: string }).email === unknownEmail)).toHaveLength(1);
  });

  it('records API key creation and revocation', async () => {
    const lu = await createUser(t, 'Lu');
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: lu.token, body: { name: 'ci' } });
    await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${created.body.data.id}`, token: lu.token });
    expect(await auditOf(lu.id, 'api_key.created')).toMatchObject([{ targetType: 'api_key', targetId: created.body.data.id }]);
    expect(await auditOf(lu.id, 'api_key.revoked')).toMatchObject([{ targetType: 'api_key', targetId: created.body.data.id }]);
  });
});

describe('OIDC_ONLY', () => {
  it('refuses password signup and sign-in with 403 password_login_disabled', async () => {
    const ann = await createUser(t, 'Ann');
    const sso = await siblingApp(t, {}, { OIDC_ONLY: true });
    try {
      for (const call of [
        { url: '/api/v1/auth/signup', body: { email: `new-${ann.id}@example.com`, password: 'correct-horse', name: 'New' } },
        { url: '/api/v1/auth/login', body: { email: ann.email, password: 'correct-horse' } },
        { url: '/api/v1/auth/session', body: { email: ann.email, password: 'correct-horse' } },
      ]) {
        const res = await sso.request({ method: 'POST', ...call });
        expect({ url: call.url, status: res.status, reason: res.body.error?.details?.reason }).toEqual({
          url: call.url,
          status: 403,
          reason: 'password_login_disabled',
        });
      }
      expect((await sso.request({ url: '/api/v1/users/me', token: ann.token })).status).toBe(200);
    } finally {
      await sso.app.close();
    }
  });
});
