import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, type TestUser } from '../helpers/factories.js';

let t: TestApp;
let ann: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await createUser(t, 'Ann');
});
afterAll(() => t.close());

const SESSION = '/api/v1/auth/session';

/** Signs in like the browser app does; returns the cookie value, the CSRF token and the raw Set-Cookie header. */
async function signIn(user: TestUser, headers: Record<string, string> = {}) {
  const res = await t.request({ method: 'POST', url: SESSION, body: { email: user.email, password: 'correct-horse' }, headers });
  expect(res.status).toBe(200);
  const setCookie = String(res.headers['set-cookie']);
  const session = /^kb_session=([^;]+)/.exec(setCookie)?.[1] as string;
  return { session, csrf: res.body.data.csrfToken as string, setCookie, body: res.body };
}

const withCookie = (session: string, extra: Record<string, string> = {}) => ({ cookie: `kb_session=${session}`, ...extra });

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
}

describe('opening a session', () => {
  it('sets an HttpOnly, SameSite=Lax cookie for the JWT lifetime and answers the user (as /users/me) and a CSRF token', async () => {
    const { setCookie, body, session } = await signIn(ann);
    const attributes = setCookie.split(/;\s*/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${t.config.JWT_TTL_S}`]));
    expect(attributes).not.toContain('Secure');
    expect(session).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const me = await t.request({ url: '/api/v1/users/me', token: ann.token });
    expect(body).toEqual({ data: { user: me.body.data, csrfToken: expect.stringMatching(/^[\w-]{43}$/) } });
  });

  it('refuses wrong credentials 401 in the error shape, with no cookie', async () => {
    const res = await t.request({ method: 'POST', url: SESSION, body: { email: ann.email, password: 'wrong-horse' } });
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('validates the body like login', async () => {
    expectError(await t.request({ method: 'POST', url: SESSION, body: { email: ann.email } }), 400, 'MISSING_REQUIRED');
  });

  it('refuses a sign-in posted from another site’s page (login CSRF)', async () => {
    const res = await t.request({
      method: 'POST',
      url: SESSION,
      body: { email: ann.email, password: 'correct-horse' },
      headers: { origin: 'https://evil.example' },
    });
    expectError(res, 403, 'FORBIDDEN');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs in again over a live or a broken cookie (no CSRF token needed to open a session)', async () => {
    const { session } = await signIn(ann);
    for (const cookie of [session, 'not.a.jwt']) {
      const res = await t.request({ method: 'POST', url: SESSION, body: { email: ann.email, password: 'correct-horse' }, headers: withCookie(cookie) });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/^kb_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    }
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: true });
    try {
      const user = await createUser(proxied, 'Pat');
      const res = await proxied.request({
        method: 'POST',
        url: SESSION,
        body: { email: user.email, password: 'correct-horse' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie']).split(/;\s*/)).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('reading the session', () => {
  it('answers the user and the same CSRF token with the cookie, 401 without it', async () => {
    const { session, csrf } = await signIn(ann);
    const res = await t.request({ url: SESSION, headers: withCookie(session) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user: { id: ann.id, email: ann.email }, csrfToken: csrf });
    expectError(await t.request({ url: SESSION }), 401, 'UNAUTHORIZED');
    expectError(await t.request({ url: SESSION, headers: withCookie('not.a.jwt') }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 to a bearer caller: the endpoint is about the browser cookie', async () => {
    expectError(await t.request({ url: SESSION, token: ann.token }), 401, 'UNAUTHORIZED');
  });

  it('authenticates a GET of a real resource by the cookie alone', async () => {
    const { session } = await signIn(ann);
    const res = await t.request({ url: '/api/v1/workspaces', headers: withCookie(session) });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
  });
});

describe('writes with the cookie need the CSRF token', () => {
  const workspace = () => ({ name: 'Cookie Co', hostname: `ck-${Math.random().toString(36).slice(2, 10)}` });

  it('refuses a write without the token or with a wrong one 403, and creates nothing', async () => {
    const { session, csrf } = await signIn(ann);
    const missing = await t.request({ method: 'POST', url: '/api/v1/workspaces', body: workspace(), headers: withCookie(session) });
    expectError(missing, 403, 'FORBIDDEN');
    expect(missing.body.error.message).toContain('X-CSRF-Token');
    const wrong = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      body: workspace(),
      headers: withCookie(session, { 'x-csrf-token': `${csrf.slice(0, -2)}AA` }),
    });
    expectError(wrong, 403, 'FORBIDDEN');
    // Another session's token does not fit this one.
    const other = await signIn(await createUser(t, 'Bob'));
    const foreign = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      body: workspace(),
      headers: withCookie(session, { 'x-csrf-token': other.csrf }),
    });
    expectError(foreign, 403, 'FORBIDDEN');
    const list = await t.request({ url: '/api/v1/workspaces', token: ann.token });
    expect(list.body.data.filter((w: { name: string }) => w.name === 'Cookie Co')).toEqual([]);
  });

  it('accepts a write with the right token, from our own origin, and the state reads back', async () => {
    const { session, csrf } = await signIn(ann);
    const body = workspace();
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      body,
      headers: withCookie(session, { 'x-csrf-token': csrf, origin: 'http://localhost' }),
    });
    expect(res.status).toBe(201);
    const read = await t.request({ url: `/api/v1/workspaces/${res.body.data.id}`, token: ann.token });
    expect(read.body.data).toMatchObject({ name: 'Cookie Co', hostname: body.hostname });
  });

  it('refuses a write naming a foreign Origin even with the right token', async () => {
    const { session, csrf } = await signIn(ann);
    for (const origin of ['https://evil.example', 'null', 'https://localhost']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspaces',
        body: workspace(),
        headers: withCookie(session, { 'x-csrf-token': csrf, origin }),
      });
      expectError(res, 403, 'FORBIDDEN');
    }
  });

  it('guards the MCP transport and bug reports the same way', async () => {
    const { session, csrf } = await signIn(ann);
    const call = (headers: Record<string, string>) =>
      t.request({
        method: 'POST',
        url: '/api/mcp',
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: withCookie(session, { accept: 'application/json, text/event-stream', ...headers }),
      });
    expectError(await call({}), 403, 'FORBIDDEN');
    expect((await call({ 'x-csrf-token': csrf })).status).toBe(200);
    const bug = await t.request({ method: 'POST', url: '/api/bug-reports/create', body: { title: 'x' }, headers: withCookie(session) });
    // Bug-report answers add `success` and `status` to the usual error body.
    expect(bug.status).toBe(403);
    expect(bug.body.error.code).toBe('FORBIDDEN');
  });

  it('counts a cookie session as a session token: API keys can be made with cookie and CSRF token', async () => {
    const { session, csrf } = await signIn(ann);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/api-keys',
      body: { name: 'from the browser' },
      headers: withCookie(session, { 'x-csrf-token': csrf }),
    });
    expect(res.status).toBe(201);
    const listed = await t.request({ url: '/api/v1/api-keys', headers: withCookie(session) });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(res.body.data.id);
  });
});

describe('which credential counts', () => {
  it('lets an Authorization header win over a bad cookie (and needs no CSRF token then)', async () => {
    const res = await t.request({ url: '/api/v1/users/me', token: ann.token, headers: withCookie('garbage') });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(ann.id);
    const write = await t.request({ method: 'PUT', url: `/api/v1/users/${ann.id}`, token: ann.token, body: { name: 'Ann B' }, headers: withCookie('garbage') });
    expect(write.status).toBe(200);
  });

  it('refuses an API key put in the cookie 401', async () => {
    const key = await createApiKey(t, ann);
    expectError(await t.request({ url: '/api/v1/users/me', headers: withCookie(key) }), 401, 'UNAUTHORIZED');
    expectError(await t.request({ url: SESSION, headers: withCookie(key) }), 401, 'UNAUTHORIZED');
  });
});

describe('closing the session', () => {
  it('needs the CSRF token, then clears the cookie with the same attributes', async () => {
    const { session, csrf } = await signIn(ann);
    expectError(await t.request({ method: 'DELETE', url: SESSION, headers: withCookie(session) }), 403, 'FORBIDDEN');
    const res = await t.request({ method: 'DELETE', url: SESSION, headers: withCookie(session, { 'x-csrf-token': csrf }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { signedOut: true } });
    const attributes = String(res.headers['set-cookie']).split(/;\s*/);
    expect(attributes[0]).toBe('kb_session=');
    expect(attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'HttpOnly', 'SameSite=Lax', 'Path=/']));
  });
});

describe('behind a TLS proxy whose headers are not trusted (PUBLIC_URL https, TRUST_PROXY off)', () => {
  let tls: TestApp;
  let pat: TestUser;
  beforeAll(async () => {
    tls = await createTestApp({ PUBLIC_URL: 'https://kb.example.com' });
    pat = await createUser(tls, 'Pat');
  });
  afterAll(() => tls.close());

  const setCookies = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie'] ?? []].flat().map(String);

  it('sets the cookie Secure, under the __Host- prefix (Path=/, no Domain), though the request itself was plain http', async () => {
    const res = await tls.request({ method: 'POST', url: SESSION, body: { email: pat.email, password: 'correct-horse' } });
    expect(res.status).toBe(200);
    const [cookie] = setCookies(res);
    const attributes = cookie.split(/;\s*/);
    expect(attributes[0]).toMatch(/^__Host-kb_session=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(attributes).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']));
    expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    const session = attributes[0].slice('__Host-kb_session='.length);
    const me = await tls.request({ url: '/api/v1/users/me', headers: { cookie: `__Host-kb_session=${session}` } });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(pat.id);
  });

  it('still reads the old kb_session cookie, and replaces it with the prefixed one at the next sign-in', async () => {
    const old = await tls.request({ url: '/api/v1/users/me', headers: { cookie: `kb_session=${pat.token}` } });
    expect(old.status).toBe(200);
    const res = await tls.request({ method: 'POST', url: SESSION, body: { email: pat.email, password: 'correct-horse' }, headers: { cookie: `kb_session=${pat.token}` } });
    const cookies = setCookies(res);
    expect(cookies.find((c) => c.startsWith('__Host-kb_session='))).toMatch(/; Secure/);
    expect(cookies.find((c) => c.startsWith('kb_session='))?.split(/;\s*/)).toEqual(expect.arrayContaining(['kb_session=', 'Max-Age=0']));
  });

  it('signing out clears the cookie under both names', async () => {
    const signedIn = await tls.request({ method: 'POST', url: SESSION, body: { email: pat.email, password: 'correct-horse' } });
    const session = /^__Host-kb_session=([^;]+)/.exec(setCookies(signedIn)[0])?.[1] as string;
    const res = await tls.request({
      method: 'DELETE',
      url: SESSION,
      headers: { cookie: `__Host-kb_session=${session}`, 'x-csrf-token': signedIn.body.data.csrfToken },
    });
    expect(res.status).toBe(200);
    const cleared = setCookies(res).map((c) => c.split(/;\s*/));
    expect(cleared.map((a) => a[0]).sort()).toEqual(['__Host-kb_session=', 'kb_session=']);
    for (const attributes of cleared) expect(attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Secure', 'Path=/']));
    expect((await tls.request({ url: '/api/v1/users/me', headers: { cookie: `__Host-kb_session=${session}` } })).status).toBe(401);
  });
});
