import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { addMember, createApiKey, createUser, createWorkspace, verifyEmail } from '../helpers/factories.js';
import { BrowserJar, startTestProvider, type TestAccount, type TestProvider } from '../helpers/oidc-provider.js';

const PUBLIC_URL = 'http://kb.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/auth/oidc/callback`;

let op: TestProvider;
let t: TestApp;
beforeAll(async () => {
  op = await startTestProvider({ redirectUri: CALLBACK });
  t = await createTestApp({
    PUBLIC_URL,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_DISPLAY_NAME: 'Test IdP',
    OIDC_ALLOWED_DOMAINS: 'example.com, Corp.Test',
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

/** A person at the provider, signed in by its next login. */
function person(email: string, emailVerified = true, name = 'Pat Example'): TestAccount {
  const account = { sub: randomUUID(), email, email_verified: emailVerified, name };
  op.accounts.set(account.sub, account);
  op.signInAs = account.sub;
  return account;
}
const newEmail = (domain = 'corp.test') => `p-${randomUUID().slice(0, 8)}@${domain}`;

/** GET /auth/oidc/start: the provider's authorization address and the sealed attempt cookie. */
async function start(returnTo?: string) {
  const res = await t.request({ url: '/api/v1/auth/oidc/start', query: returnTo === undefined ? undefined : { returnTo } });
  expect(res.status).toBe(302);
  const attempt = /^kb_oidc=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] as string;
  return { authorize: new URL(String(res.headers.location)), attempt, setCookie: String(res.headers['set-cookie']) };
}

/** The browser at the provider: logs in and comes back with the code; answers our callback address. */
const atProvider = (authorize: URL) => new BrowserJar().followUntil(authorize.href, CALLBACK);

function callback(url: URL, attempt: string | undefined) {
  return t.request({ url: `${url.pathname}${url.search}`, headers: attempt ? { cookie: `kb_oidc=${attempt}` } : {} });
}

/** The whole round trip for whoever `op.signInAs` is. */
async function signInWithProvider(returnTo?: string) {
  const { authorize, attempt } = await start(returnTo);
  return callback(await atProvider(authorize), attempt);
}

/** The whole round trip through another app over the same database (other settings). */
async function roundTripThrough(request: TestApp['request']) {
  const begun = await request({ url: '/api/v1/auth/oidc/start' });
  const attempt = /^kb_oidc=([^;]+)/.exec(String(begun.headers['set-cookie']))?.[1] as string;
  const back = await new BrowserJar().followUntil(String(begun.headers.location), CALLBACK);
  return request({ url: `${back.pathname}${back.search}`, headers: { cookie: `kb_oidc=${attempt}` } });
}

function sessionCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const header = [res.headers['set-cookie']].flat().join('\n');
  return /(?:^|\n)kb_session=([^;]+)/.exec(header)?.[1];
}

function expectRefused(res: { status: number; headers: Record<string, unknown> }, reason: string) {
  expect(res.status).toBe(302);
  const location = new URL(String(res.headers.location), PUBLIC_URL);
  expect(location.pathname).toBe('/login');
  expect(location.searchParams.get('sso_error')).toBe(reason);
  expect(sessionCookieOf(res)).toBeUndefined();
}

const me = (session: string) => t.request({ url: '/api/v1/users/me', headers: { cookie: `kb_session=${session}` } });

const userByEmail = (email: string) =>
  t.database.db.selectFrom('users').select(['id', 'email', 'name', 'passwordHash']).where('email', '=', email).executeTakeFirst();
const identitiesOf = (userId: string) => t.database.db.selectFrom('userIdentities').selectAll().where('userId', '=', userId).execute();
const claimsOf = (userId: string) =>
  t.database.db
    .selectFrom('auditLog')
    .select(['workspaceId', 'actorId', 'details'])
    .where('action', '=', 'auth.unverified_account_claimed')
    .where('targetId', '=', userId)
    .execute();
const failuresFor = (reason: string) =>
  t.database.db
    .selectFrom('auditLog')
    .select(['actorId', 'workspaceId', 'details'])
    .where('action', '=', 'auth.signin_failed')
    .where((eb) => eb(eb.ref('details', '->>').key('reason' as never), '=', reason))
    .execute();

describe('GET /auth/providers', () => {
  it('offers the password and the provider, with its name and where to start', async () => {
    const res = await t.request({ url: '/api/v1/auth/providers' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { password: true, oidc: { name: 'Test IdP', startUrl: '/api/v1/auth/oidc/start' } } });
  });

  it('says so when single sign-on is off, and when it is the only way in', async () => {
    const off = await siblingApp(t, {}, { OIDC_ISSUER: undefined });
    const only = await siblingApp(t, {}, { OIDC_ONLY: true });
    try {
      expect((await off.request({ url: '/api/v1/auth/providers' })).body).toEqual({ data: { password: true, oidc: null } });
      expect((await only.request({ url: '/api/v1/auth/providers' })).body.data).toMatchObject({ password: false, oidc: { name: 'Test IdP' } });
      const refused = await off.request({ url: '/api/v1/auth/oidc/start' });
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'sso_disabled' } });
    } finally {
      await off.app.close();
      await only.app.close();
    }
  });
});

describe('GET /auth/oidc/start', () => {
  it('redirects to the provider with the code flow, PKCE S256, state and nonce, keeping them in a sealed HttpOnly cookie', async () => {
    const { authorize, attempt, setCookie } = await start('/spaces/1');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${op.issuer}/auth`);
    const p = authorize.searchParams;
    expect(p.get('response_type')).toBe('code');
    expect(p.get('client_id')).toBe(op.clientId);
    expect(p.get('redirect_uri')).toBe(CALLBACK);
    expect(p.get('scope')).toBe('openid email profile');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(p.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const attributes = setCookie.split(/;\s*/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Max-Age=600', 'Path=/api/v1/auth/oidc']));
    // Sealed: neither the state, the nonce nor the return path can be read from it.
    const opened = Buffer.from(attempt, 'base64url').toString('latin1');
    for (const secret of [p.get('state'), p.get('nonce'), '/spaces/1']) expect(opened).not.toContain(secret);
  });

  it('answers 503 with a clear error when the provider cannot be reached, and tries discovery again next time', async () => {
    const down = await startTestProvider({ redirectUri: CALLBACK });
    await down.close();
    const app = await siblingApp(t, {}, { OIDC_ISSUER: down.issuer });
    let back: TestProvider | undefined;
    try {
      const res = await app.request({ url: '/api/v1/auth/oidc/start' });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining(down.issuer),
        details: { reason: 'provider_unavailable' },
      });
      back = await startTestProvider({ redirectUri: CALLBACK, port: Number(new URL(down.issuer).port) });
      const retried = await app.request({ url: '/api/v1/auth/oidc/start' });
      expect(retried.status).toBe(302);
      expect(String(retried.headers.location)).toMatch(new RegExp(`^${down.issuer}/auth\\?`));
    } finally {
      await app.app.close();
      await back?.close();
    }
  });

  it('refuses a plain-http issuer that is not on this machine', async () => {
    const app = await siblingApp(t, {}, { OIDC_ISSUER: 'http://idp.example.com' });
    try {
      const res = await app.request({ url: '/api/v1/auth/oidc/start' });
      expect(res.status).toBe(503);
      expect(res.body.error.details).toEqual({ reason: 'issuer_not_https' });
    } finally {
      await app.app.close();
    }
  });
});

describe('the round trip', () => {
  it('creates the account at first login, opens a browser session and returns to the path asked for', async () => {
    const account = person(newEmail(), true, 'Ada Lovelace');
    const res = await signInWithProvider('/spaces/abc?tab=pages');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/spaces/abc?tab=pages');
    expect(String(res.headers['set-cookie'])).toMatch(/kb_oidc=;/);
    const session = sessionCookieOf(res) as string;
    expect(session).toBeDefined();
    const whoami = await me(session);
    expect(whoami.status).toBe(200);
    expect(whoami.body.data).toMatchObject({ email: account.email, name: 'Ada Lovelace' });

    const user = await userByEmail(account.email);
    expect(user?.passwordHash).toBeNull();
    const identities = await identitiesOf(user?.id as string);
    expect(identities).toEqual([expect.objectContaining({ issuer: op.issuer, subject: account.sub, email: account.email, lastLoginAt: expect.any(Date) })]);
    const signins = await t.database.db
      .selectFrom('auditLog')
      .select(['workspaceId', 'details'])
      .where('action', '=', 'auth.signin')
      .where('actorId', '=', user?.id as string)
      .execute();
    expect(signins).toEqual([{ workspaceId: null, details: expect.objectContaining({ via: 'oidc' }) }]);
  });

  it('signs the same person in again through their identity, even after their email changed at the provider', async () => {
    const account = person(newEmail());
    const first = await signInWithProvider();
    expect(first.headers.location).toBe('/');
    const userId = (await me(sessionCookieOf(first) as string)).body.data.id;
    account.email = newEmail();
    const second = await signInWithProvider();
    expect((await me(sessionCookieOf(second) as string)).body.data.id).toBe(userId);
    const identities = await identitiesOf(userId);
    expect(identities).toHaveLength(1);
    expect(identities[0].email).toBe(account.email);
    expect(await userByEmail(account.email)).toBeUndefined();
  });

  it('reads the claims from the ID token when the provider puts them there', async () => {
    const op2 = await startTestProvider({ redirectUri: CALLBACK, claimsInIdToken: true });
    const app = await siblingApp(t, {}, { OIDC_ISSUER: op2.issuer, OIDC_CLIENT_ID: op2.clientId, OIDC_CLIENT_SECRET: op2.clientSecret });
    try {
      const account = { sub: randomUUID(), email: newEmail(), email_verified: true, name: 'Id Token' };
      op2.accounts.set(account.sub, account);
      op2.signInAs = account.sub;
      const res = await roundTripThrough(app.request);
      expect(res.headers.location).toBe('/');
      expect(await userByEmail(account.email)).toMatchObject({ name: 'Id Token' });
    } finally {
      await app.app.close();
      await op2.close();
    }
  });

  it('never returns to another site: `//evil.com` and absolute addresses become `/`', async () => {
    for (const returnTo of ['//evil.com', 'https://evil.com/x', '/\\evil.com', '/\t/evil.com', 'javascript:alert(1)']) {
      person(newEmail());
      const res = await signInWithProvider(returnTo);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/');
      expect(sessionCookieOf(res)).toBeDefined();
    }
  });
});

describe('refusals', () => {
  it('refuses an answer whose state is not the attempt’s (state_mismatch)', async () => {
    person(newEmail());
    const { authorize, attempt } = await start();
    authorize.searchParams.set('state', 'forged-state-forged-state');
    const res = await callback(await atProvider(authorize), attempt);
    expectRefused(res, 'state_mismatch');
    expect(await failuresFor('state_mismatch')).toEqual([expect.objectContaining({ actorId: null, workspaceId: null })]);
  });

  it('refuses an ID token minted for another nonce (nonce_mismatch)', async () => {
    const account = person(newEmail());
    const { authorize, attempt } = await start();
    authorize.searchParams.set('nonce', 'another-nonce-another-nonce');
    expectRefused(await callback(await atProvider(authorize), attempt), 'nonce_mismatch');
    expect(await userByEmail(account.email)).toBeUndefined();
  });

  it('refuses a callback without the attempt cookie, or with a forged one (attempt_expired)', async () => {
    person(newEmail());
    const { authorize, attempt } = await start();
    const back = await atProvider(authorize);
    expectRefused(await callback(back, undefined), 'attempt_expired');
    const forged = Buffer.from(attempt, 'base64url');
    forged[20] ^= 1;
    expectRefused(await callback(back, forged.toString('base64url')), 'attempt_expired');
  });

  it('refuses a code used twice (code_rejected)', async () => {
    person(newEmail());
    const { authorize, attempt } = await start();
    const back = await atProvider(authorize);
    expect(sessionCookieOf(await callback(back, attempt))).toBeDefined();
    expectRefused(await callback(back, attempt), 'code_rejected');
  });

  it('refuses an expired code (code_rejected)', async () => {
    const account = person(newEmail());
    op.codeTtlS = 1;
    try {
      const { authorize, attempt } = await start();
      const back = await atProvider(authorize);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expectRefused(await callback(back, attempt), 'code_rejected');
      expect(await userByEmail(account.email)).toBeUndefined();
    } finally {
      op.codeTtlS = 60;
    }
  });

  it('passes on the provider’s own refusal (provider_error), keeping the path to return to', async () => {
    const { authorize, attempt } = await start('/tasks');
    const url = new URL(CALLBACK);
    url.search = new URLSearchParams({ error: 'access_denied', state: authorize.searchParams.get('state') as string }).toString();
    const res = await callback(url, attempt);
    expectRefused(res, 'provider_error');
    expect(new URL(String(res.headers.location), PUBLIC_URL).searchParams.get('next')).toBe('/tasks');
  });

  it('creates no account for a domain that is not allowed (domain_not_allowed)', async () => {
    const account = person(newEmail('elsewhere.test'));
    expectRefused(await signInWithProvider(), 'domain_not_allowed');
    expect(await userByEmail(account.email)).toBeUndefined();
    const failures = await failuresFor('domain_not_allowed');
    expect(failures).toEqual([{ actorId: null, workspaceId: null, details: { via: 'oidc', reason: 'domain_not_allowed', email: account.email } }]);
  });

  it('does not create an account from an email the provider says is unverified, when domains are restricted', async () => {
    const account = person(newEmail(), false);
    expectRefused(await signInWithProvider(), 'email_not_verified');
    expect(await userByEmail(account.email)).toBeUndefined();
  });
});

describe('linking an existing account', () => {
  it('does not link it through an unverified email (email_not_verified)', async () => {
    const existing = await createUser(t, 'Bea');
    person(existing.email, false);
    expectRefused(await signInWithProvider(), 'email_not_verified');
    expect(await identitiesOf(existing.id)).toEqual([]);
  });

  it('links an account whose email kb verified: the provider then signs in as that account, password kept', async () => {
    const existing = await createUser(t, 'Cy');
    await verifyEmail(t, existing);
    person(existing.email.toUpperCase(), true, 'Someone Else');
    const res = await signInWithProvider();
    const whoami = await me(sessionCookieOf(res) as string);
    expect(whoami.body.data).toMatchObject({ id: existing.id, email: existing.email, name: 'Cy', emailVerified: true });
    expect(await identitiesOf(existing.id)).toHaveLength(1);
    const password = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: existing.email, password: 'correct-horse' } });
    expect(password.status).toBe(200);
    expect((await t.request({ url: '/api/v1/users/me', token: existing.token })).status).toBe(200);
    expect(await claimsOf(existing.id)).toEqual([]);
  });
});

describe('SSO pre-account takeover (issue 29): an unverified password account is claimed, not linked as it is', () => {
  it('takes away the password, every session, every API key and reset link of whoever made it, in one go, and says so', async () => {
    // Mallory signs up with Vic's address before Vic ever signs in: nothing verifies the address.
    const squatted = await createUser(t, 'Mallory');
    const key = await createApiKey(t, squatted);
    const trap = await createWorkspace(t, squatted, 'Trap');
    const accomplice = await createUser(t, 'Accomplice');
    await addMember(t, trap.id, squatted, accomplice, 'admin');
    const resetLink = await t.request({ method: 'POST', url: `/api/v1/workspaces/${trap.id}/members/${squatted.id}/password-reset`, token: accomplice.token });
    expect(resetLink.status, JSON.stringify(resetLink.body)).toBe(201);
    expect((await t.request({ url: '/api/v1/users/me', token: key })).status).toBe(200);

    // Vic signs in with the company's provider, which vouches for the address.
    person(squatted.email, true, 'Vic Tim');
    const res = await signInWithProvider();
    const session = sessionCookieOf(res) as string;
    const whoami = await me(session);
    expect(whoami.status).toBe(200);
    expect(whoami.body.data).toMatchObject({ id: squatted.id, emailVerified: true });

    // Mallory's ways in are gone.
    expect((await userByEmail(squatted.email))?.passwordHash).toBeNull();
    const password = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: squatted.email, password: 'correct-horse' } });
    expect(password.status).toBe(401);
    expect((await t.request({ url: '/api/v1/users/me', token: squatted.token })).status).toBe(401);
    expect((await t.request({ url: '/api/v1/users/me', token: key })).status).toBe(401);
    const reset = await t.request({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      body: { token: String(resetLink.body.data.url).split('/reset-password/')[1], newPassword: 'mallory-again' },
    });
    expect(reset.status).toBe(400);
    // Nor can the accomplice make a new link: the account signs in with single sign-on now.
    const again = await t.request({ method: 'POST', url: `/api/v1/workspaces/${trap.id}/members/${squatted.id}/password-reset`, token: accomplice.token });
    expect(again.status).toBe(403);
    expect(again.body.error.details).toEqual({ reason: 'sso_account' });

    // Vic's own session works; the identity is linked; the audit log tells what went.
    expect(await identitiesOf(squatted.id)).toEqual([expect.objectContaining({ issuer: op.issuer, email: squatted.email })]);
    expect(await claimsOf(squatted.id)).toEqual([
      {
        workspaceId: null,
        actorId: squatted.id,
        details: {
          via: 'oidc',
          issuer: op.issuer,
          linkedNow: true,
          passwordRemoved: true,
          sessionsRevoked: 1,
          apiKeysRevoked: 1,
          resetLinksVoided: 1,
        },
      },
    ]);
  });

  it('claims an account linked before kb verified emails at its next single sign-on, once', async () => {
    const account = person(newEmail());
    const first = await signInWithProvider();
    const userId = (await me(sessionCookieOf(first) as string)).body.data.id as string;
    // As it was before this release: a password account linked to an identity, its email not verified by kb.
    await t.database.db
      .updateTable('users')
      .set({ emailVerifiedAt: null, passwordHash: 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' })
      .where('id', '=', userId)
      .execute();
    const second = await signInWithProvider();
    expect((await me(sessionCookieOf(first) as string)).status).toBe(401);
    const secondSession = sessionCookieOf(second) as string;
    expect((await me(secondSession)).body.data).toMatchObject({ id: userId, email: account.email, emailVerified: true });
    expect((await userByEmail(account.email))?.passwordHash).toBeNull();
    expect((await claimsOf(userId)).map((c) => c.details)).toEqual([expect.objectContaining({ linkedNow: false, passwordRemoved: true, sessionsRevoked: 1 })]);
    // The next sign-in claims nothing more: the sessions of the person themselves stay.
    await signInWithProvider();
    expect((await me(secondSession)).status).toBe(200);
    expect(await claimsOf(userId)).toHaveLength(1);
  });

  it('a new account gets a verified email only when the provider vouches for it', async () => {
    const open = await siblingApp(t, {}, { OIDC_ALLOWED_DOMAINS: '' });
    try {
      for (const verified of [true, false]) {
        const account = person(newEmail('anywhere.test'), verified);
        expect((await roundTripThrough(open.request)).status).toBe(302);
        const row = await t.database.db.selectFrom('users').select('emailVerifiedAt').where('email', '=', account.email).executeTakeFirstOrThrow();
        expect(row.emailVerifiedAt !== null).toBe(verified);
      }
    } finally {
      await open.app.close();
    }
  });
});

describe('adding an account of the single sign-on to a workspace', () => {
  it('adds it at once (201): the provider of OIDC_ALLOWED_DOMAINS vouches for it; a password account of the same domain is invited', async () => {
    const admin = await createUser(t, 'Admin');
    const workspace = await createWorkspace(t, admin, 'Corp');
    const account = person(newEmail('corp.test'), true, 'Sso Person');
    await signInWithProvider();
    const ssoUser = (await userByEmail(account.email)) as { id: string };
    const add = (userId: string) =>
      t.request({ method: 'POST', url: `/api/v1/workspaces/${workspace.id}/members`, token: admin.token, body: { userId, role: 'viewer' } });
    const direct = await add(ssoUser.id);
    expect(direct.status, JSON.stringify(direct.body)).toBe(201);
    expect(direct.body.data).toMatchObject({ id: ssoUser.id, email: account.email, role: 'viewer' });
    const signup = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      body: { email: newEmail('corp.test'), password: 'correct-horse', name: 'Pw' },
    });
    const invited = await add(signup.body.data.user.id);
    expect(invited.status).toBe(202);
    expect(invited.body.data.status).toBe('invited');
  });
});
