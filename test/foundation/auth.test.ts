import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const unique = () => randomBytes(4).toString('hex');

function sign(claims: { sub?: string; sid?: string; iat: number; exp: number }, secret = TEST_JWT_SECRET) {
  let jwt = new SignJWT(claims.sid ? { sid: claims.sid } : {}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(claims.iat).setExpirationTime(claims.exp);
  if (claims.sub) jwt = jwt.setSubject(claims.sub);
  return jwt.sign(new TextEncoder().encode(secret));
}

describe('signup', () => {
  it('creates an account: 201 with the user and a JWT that works', async () => {
    const email = `Ann.${unique()}@Example.COM`;
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: `  ${email} `, password: 'correct-horse', name: ' Ann ' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        user: {
          id: expect.any(String),
          email: email.toLowerCase(),
          name: 'Ann',
          avatarUrl: null,
          role: null,
          emailVerified: false,
          createdAt: expect.stringMatching(ISO),
        },
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      },
    });
    expect(res.body.data.user).not.toHaveProperty('password');
    expect(res.body.data.user).not.toHaveProperty('passwordHash');
    const me = await t.request({ url: '/api/v1/users/me', token: res.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual(res.body.data.user);
  });

  it('refuses a taken email with 409, whatever its case', async () => {
    const user = await createUser(t, 'Bob');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      body: { email: user.email.toUpperCase(), password: 'another-pass', name: 'Bob 2' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'email' } });
    const rows = await t.database.db.selectFrom('users').select('id').where('name', '=', 'Bob 2').execute();
    expect(rows).toEqual([]);
  });

  it('refuses a short password and a bad email with 422, and missing fields with 400 MISSING_REQUIRED', async () => {
    const short = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: `s-${unique()}@example.com`, password: 'short', name: 'S' } });
    expect(short.status).toBe(422);
    expect(short.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } });
    expect(short.body.error.message).toMatch(/8/);

    const badEmail = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: 'not-an-email', password: 'long-enough', name: 'S' } });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'email' } });

    for (const [body, field] of [
      [{ password: 'long-enough', name: 'S' }, 'email'],
      [{ email: `m-${unique()}@example.com`, name: 'S' }, 'password'],
      [{ email: `m-${unique()}@example.com`, password: 'long-enough' }, 'name'],
      [{}, 'email'],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field, reason: 'required' } });
    }
    const noBody = await t.request({ method: 'POST', url: '/api/v1/auth/signup' });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error.code).toBe('MISSING_REQUIRED');
  });

  it('stores the password hashed (scrypt), never in plain text', async () => {
    const email = `hash-${unique()}@example.com`;
    const password = 'plain-text-password-42';
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email, password, name: 'Hash' } });
    expect(res.status).toBe(201);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', res.body.data.user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(row)).not.toContain(password);
    // Two accounts with the same password get different hashes (salted).
    const other = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: `hash2-${unique()}@example.com`, password, name: 'Hash' } });
    const row2 = await t.database.db.selectFrom('users').select('passwordHash').where('id', '=', other.body.data.user.id).executeTakeFirstOrThrow();
    expect(row2.passwordHash).not.toBe(row.passwordHash);
  });
});

describe('login', () => {
  it('exchanges email and password for a JWT with expiresAt', async () => {
    const user = await createUser(t, 'Cat');
    const before = Date.now();
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: user.email.toUpperCase(), password: 'correct-horse' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: expect.objectContaining({ id: user.id, email: user.email, name: 'Cat' }),
      token: expect.any(String),
      expiresAt: expect.stringMatching(ISO),
    });
    const expiresAt = Date.parse(res.body.data.expiresAt);
    expect(expiresAt).toBeGreaterThan(before + (t.config.JWT_TTL_S - 5) * 1000);
    expect(expiresAt).toBeLessThan(Date.now() + (t.config.JWT_TTL_S + 5) * 1000);
    const me = await t.request({ url: '/api/users/me', token: res.body.data.token });
    expect(me.body.data.id).toBe(user.id);
  });

  it('refuses a bad pair with 401 UNAUTHORIZED, the same for an unknown email', async () => {
    const user = await createUser(t, 'Dan');
    const wrong = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: user.email, password: 'wrong-horse' } });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      body: { email: `nobody-${unique()}@example.com`, password: 'correct-horse' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expect(res.body.data).toBeUndefined();
    }
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    const missing = await t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: user.email } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'password' } });
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, authenticates with it and records lastUsedAt', async () => {
    const user = await createUser(t, 'Eve');
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body: { name: 'CI' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      name: 'CI',
      key: expect.stringMatching(/^kb_[\w-]{40,}$/),
      access: 'read-write',
      expiresAt: null,
      workspaceId: null,
      createdAt: expect.stringMatching(ISO),
    });
    const { key, id } = created.body.data;

    const list = await t.request({ url: '/api/v1/api-keys', token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id,
        name: 'CI',
        prefix: key.slice(0, 9),
        access: 'read-write',
        expiresAt: null,
        workspaceId: null,
        workspaceName: null,
        createdAt: created.body.data.createdAt,
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key);

    // Stored only as a hash.
    const row = await t.database.db.selectFrom('apiKeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);

    const me = await t.request({ url: '/api/v1/users/me', token: key });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: user.id, email: user.email });

    await vi.waitFor(
      async () => {
        const again = await t.request({ url: '/api/v1/api-keys', token: user.token });
        expect(again.body.data[0].lastUsedAt).toMatch(ISO);
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it('revokes a key: it then gets 401, leaves the list, and a second revoke is 404', async () => {
    const user = await createUser(t, 'Fay');
    const key = await createApiKey(t, user, 'doomed');
    const keep = await createApiKey(t, user, 'kept');
    expect((await t.request({ url: '/api/v1/users/me', token: key })).status).toBe(200);
    const id = (await t.request({ url: '/api/v1/api-keys', token: user.token })).body.data.find((k: { name: string }) => k.name === 'doomed').id;

    const revoked = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, token: user.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ data: { id, deleted: true } });

    const after = await t.request({ url: '/api/v1/users/me', token: key });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
    expect((await t.request({ url: '/api/v1/users/me', token: keep })).status).toBe(200);
    const list = await t.request({ url: '/api/v1/api-keys', token: user.token });
    expect(list.body.data.map((k: { name: string }) => k.name)).toEqual(['kept']);
    const again = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, token: user.token });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it("does not let a user see or revoke another user's key", async () => {
    const [owner, other] = await Promise.all([createUser(t, 'Gil'), createUser(t, 'Hal')]);
    const key = await createApiKey(t, owner, 'mine');
    const id = (await t.request({ url: '/api/v1/api-keys', token: owner.token })).body.data[0].id;
    expect((await t.request({ url: '/api/v1/api-keys', token: other.token })).body.data).toEqual([]);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, token: other.token });
    expect(res.status).toBe(404);
    expect((await t.request({ url: '/api/v1/users/me', token: key })).status).toBe(200);
  });

  it('refuses key management to an API key (403): a leaked key cannot mint keys that outlive its revocation', async () => {
    const user = await createUser(t, 'Ida');
    const key = await createApiKey(t, user);
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: key, body: { name: 'from a key' } });
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ error: { code: 'FORBIDDEN', message: expect.stringMatching(/session token/), details: { reason: 'session_required' } } });
    const listed = await t.request({ url: '/api/api-keys', token: key });
    expect(listed.status).toBe(403);
    const keys = await t.request({ url: '/api/v1/api-keys', token: user.token });
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(['key']);
    const revoke = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${keys.body.data[0].id}`, token: key });
    expect(revoke.status).toBe(403);
    // The key still works for everything else.
    expect((await t.request({ url: '/api/v1/users/me', token: key })).status).toBe(200);
  });

  it('refuses a key without a name', async () => {
    const user = await createUser(t, 'Ida');
    const missing = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'name' } });
    const blank = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body: { name: '   ' } });
    expect(blank.status).toBe(422);
    const noAuth = await t.request({ method: 'POST', url: '/api/v1/api-keys', body: { name: 'anon' } });
    expect(noAuth.status).toBe(401);
  });

  it('caps the active keys of a user at MAX_API_KEYS_PER_USER (422 too_many_keys), even when created at once; revoking frees a place', async () => {
    const capped = await createTestApp({ MAX_API_KEYS_PER_USER: 3 });
    try {
      const user = await createUser(capped, 'Cap');
      const create = (name: string) => capped.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body: { name } });
      const all = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(create));
      expect(all.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422]);
      const refused = all.find((r) => r.status === 422)!;
      expect(refused.body).toEqual({
        error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/at most 3/), details: { field: 'name', reason: 'too_many_keys', limit: 3 } },
      });
      const keys = await capped.request({ url: '/api/v1/api-keys', token: user.token });
      expect(keys.body.data).toHaveLength(3);
      // Another user has their own allowance.
      expect(
        (await capped.request({ method: 'POST', url: '/api/v1/api-keys', token: (await createUser(capped, 'Other')).token, body: { name: 'x' } })).status,
      ).toBe(201);
      expect((await capped.request({ method: 'DELETE', url: `/api/v1/api-keys/${keys.body.data[0].id}`, token: user.token })).status).toBe(200);
      expect((await create('after revoke')).status).toBe(201);
      expect((await create('one too many')).status).toBe(422);
    } finally {
      await capped.close();
    }
  });
});

describe('credentials', () => {
  it('answers an expired JWT 401 TOKEN_EXPIRED', async () => {
    const user = await createUser(t, 'Jo');
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ sub: user.id, iat: now - 7200, exp: now - 3600 });
    const res = await t.request({ url: '/api/v1/users/me', token: expired });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_EXPIRED');
    // A token must name an open session (its `sid`): the fresh one reuses the session of the user's sign-up.
    const fresh = await sign({ sub: user.id, sid: decodeJwt(user.token).sid as string, iat: now, exp: now + 3600 });
    expect((await t.request({ url: '/api/v1/users/me', token: fresh })).status).toBe(200);
  });

  it('answers a missing, malformed, unknown or forged credential 401 UNAUTHORIZED', async () => {
    const user = await createUser(t, 'Kim');
    const now = Math.floor(Date.now() / 1000);
    const forged = await sign({ sub: user.id, iat: now, exp: now + 3600 }, 'another-secret-another-secret');
    const noSubject = await sign({ iat: now, exp: now + 3600 });
    const [header, payload] = user.token.split('.');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const cases: Record<string, string | undefined>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${user.token} extra` },
      { authorization: `Token ${user.token}` },
      { authorization: `Bearer kb_${randomBytes(32).toString('base64url')}` },
      { authorization: 'Bearer kb_' },
      { authorization: 'Bearer a.b.c' },
      { authorization: 'Bearer garbage' },
      { authorization: `Bearer ${header}.${payload}.AAAA` },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${noSubject}` },
      { authorization: `Bearer ${unsigned}` },
      { authorization: `Bearer ${'x'.repeat(5000)}` },
    ];
    for (const headers of cases) {
      const res = await t.request({ url: '/api/v1/users/me', headers: headers as Record<string, string> });
      expect({ headers, status: res.status, code: res.body.error?.code }).toEqual({ headers, status: 401, code: 'UNAUTHORIZED' });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers a valid JWT whose account does not exist (a reset database) 401 UNAUTHORIZED, never 500', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ghost = await sign({ sub: 'ghost-user', iat: now, exp: now + 3600 });
    for (const call of [
      { url: '/api/v1/users/me' },
      { url: '/api/v1/workspaces' },
      { method: 'POST' as const, url: '/api/v1/workspaces', body: { name: 'Ghost', hostname: 'ghost-town' } },
      { method: 'POST' as const, url: '/api/v1/api-keys', body: { name: 'ghost' } },
    ]) {
      const res = await t.request({ ...call, token: ghost });
      expect({ url: call.url, status: res.status, code: res.body.error?.code }).toEqual({ url: call.url, status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('lets a bad credential through to public routes only', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      headers: { authorization: 'Bearer garbage' },
      body: { email: `pub-${unique()}@example.com`, password: 'correct-horse', name: 'Pub' },
    });
    expect(res.status).toBe(201);
    expect((await t.request({ url: '/api/health', headers: { authorization: 'Bearer garbage' } })).status).toBe(200);
  });
});
