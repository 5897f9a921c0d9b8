import { publicUrlOf } from '../../src/config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestApp, type Response, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';

let t: TestApp;
let ann: TestUser;
let ws: { id: string; hostname: string };
beforeAll(async () => {
  t = await createTestApp({ corsOrigins: ['https://app.example'] });
  ann = await createUser(t, 'Ann');
  ws = await createWorkspace(t, ann);
});
afterAll(() => t.close());

/** The interface's error body, with the code and status. */
function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toBeTruthy();
}

describe('request ids', () => {
  it('puts X-Request-Id on successes, errors and unknown routes', async () => {
    const ok = await t.request({ url: '/api/v1/workspaces', token: ann.token });
    const unauthorized = await t.request({ url: '/api/v1/workspaces' });
    const missing = await t.request({ url: '/api/v1/nothing-here' });
    const health = await t.request({ url: '/api/health' });
    const ids = [ok, unauthorized, missing, health].map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(new Set(ids).size).toBe(4);
  });

  it('keeps a well-formed incoming id and replaces a malformed one', async () => {
    const kept = await t.request({ url: '/api/v1/workspaces', token: ann.token, headers: { 'x-request-id': 'client-42.abc:XYZ_1' } });
    expect(kept.headers['x-request-id']).toBe('client-42.abc:XYZ_1');
    const keptOnError = await t.request({ url: '/api/v1/nope', headers: { 'x-request-id': 'trace-1' } });
    expect(keptOnError.headers['x-request-id']).toBe('trace-1');
    for (const bad of ['has spaces in it', 'x'.repeat(500), 'semi;colon', '<script>']) {
      const res = await t.request({ url: '/api/v1/workspaces', token: ann.token, headers: { 'x-request-id': bad } });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    }
  });
});

describe('versioned paths', () => {
  it('serves /api/v1/<resource> and /api/<resource> from one definition', async () => {
    const v1 = await t.request({ url: `/api/v1/workspaces/${ws.id}`, token: ann.token });
    const bare = await t.request({ url: `/api/workspaces/${ws.id}`, token: ann.token });
    expect(v1.status).toBe(200);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual(v1.body);
    const me = await t.request({ url: '/api/users/me', token: ann.token });
    expect(me.body.data.id).toBe(ann.id);
  });
});

describe('error mapping', () => {
  it('answers an unknown route 404 NOT_FOUND in the error shape, with or without credentials', async () => {
    expectError(await t.request({ url: '/api/v1/no-such-thing' }), 404, 'NOT_FOUND');
    expectError(await t.request({ method: 'POST', url: '/api/v1/workspaces/x/y/z', token: ann.token, body: {} }), 404, 'NOT_FOUND');
    // GET of another path is the web app's (test/foundation/web-app.test.ts); other methods stay a JSON 404.
    expectError(await t.request({ method: 'POST', url: '/elsewhere', body: {} }), 404, 'NOT_FOUND');
  });

  it('challenges every 401 with WWW-Authenticate: Bearer (invalid_token when a token was sent), on REST and MCP', async () => {
    // Not listening (inject): the service's address is PUBLIC_URL, else the configured host and port.
    const metadata = `${publicUrlOf(t.config)}/.well-known/oauth-protected-resource`;
    const none = await t.request({ url: '/api/v1/users/me' });
    expectError(none, 401, 'UNAUTHORIZED');
    expect(none.headers['www-authenticate']).toBe(`Bearer realm="kb", resource_metadata="${metadata}/api/v1"`);
    const wrong = await t.request({ url: '/api/v1/users/me', token: 'kb_not-a-real-key' });
    expectError(wrong, 401, 'UNAUTHORIZED');
    expect(wrong.headers['www-authenticate']).toBe(`Bearer realm="kb", resource_metadata="${metadata}/api/v1", error="invalid_token"`);
    const mcp = await t.request({ method: 'POST', url: '/api/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toBe(`Bearer realm="kb", resource_metadata="${metadata}/api/mcp"`);
    // Not on other refusals.
    expect((await t.request({ url: '/api/v1/no-such-thing', token: ann.token })).headers['www-authenticate']).toBeUndefined();
  });

  it('answers an undecodable URL 400 INVALID_PARAMETER in the error shape, with a request id', async () => {
    const res = await t.request({ url: '/api/v1/workspaces/%E0%A4%A', token: ann.token, headers: { 'x-request-id': 'bad-url-1' } });
    expectError(res, 400, 'INVALID_PARAMETER');
    expect(res.body.error.details).toMatchObject({ field: 'url', reason: 'malformed_url' });
    expect(res.headers['x-request-id']).toBe('bad-url-1');
  });

  it('answers malformed JSON 400 INVALID_PARAMETER', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: '{"name": "Acme", "hostname":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'INVALID_PARAMETER');
    expect(res.body.error.details).toMatchObject({ field: 'body', reason: 'malformed_json' });
  });

  it('answers an unsupported content type 400 INVALID_PARAMETER', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: 'name=Acme',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 400, 'INVALID_PARAMETER');
  });

  it('refuses a body over BODY_LIMIT_BYTES with 413 in the error shape', async () => {
    const small = await createTestApp({ BODY_LIMIT_BYTES: 1024 });
    try {
      const user = await createUser(small, 'Small');
      const res = await small.request({ method: 'POST', url: '/api/v1/workspaces', token: user.token, body: { name: 'x'.repeat(2000), hostname: 'big' } });
      expectError(res, 413, 'VALIDATION_ERROR');
      expect(res.body.error.details).toMatchObject({ field: 'body', reason: 'too_large' });
      const list = await small.request({ url: '/api/v1/workspaces', token: user.token });
      expect(list.body.data).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('refuses wrong types and unknown enum values in a body with 422 naming the field', async () => {
    const wrongType = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 123, hostname: 'typed' } });
    expectError(wrongType, 422, 'VALIDATION_ERROR');
    expect(wrongType.body.error.details).toMatchObject({ field: 'name', reason: expect.any(String) });

    const badEnum = await t.request({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.id}`,
      token: ann.token,
      body: { settings: { defaultRole: 'owner' } },
    });
    expectError(badEnum, 422, 'VALIDATION_ERROR');
    expect(badEnum.body.error.details.field).toBe('settings.defaultRole');

    const badBool = await t.request({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.id}`,
      token: ann.token,
      body: { settings: { allowPublicPages: 'yes' } },
    });
    expectError(badBool, 422, 'VALIDATION_ERROR');
    expect(badBool.body.error.details.field).toBe('settings.allowPublicPages');

    const notAnObject = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expectError(notAnObject, 422, 'VALIDATION_ERROR');
  });

  it('refuses a 1 MB name with 413 (past the small body limit of record routes), a long one with 422, and stores nothing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: 'n'.repeat(1024 * 1024), hostname: 'huge-name' },
    });
    expectError(res, 413, 'VALIDATION_ERROR');
    expect(res.body.error.details).toMatchObject({ field: 'body', reason: 'too_large' });
    const long = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'n'.repeat(10_000), hostname: 'huge-name' } });
    expectError(long, 422, 'VALIDATION_ERROR');
    expect(long.body.error.details.field).toBe('name');
    expect(JSON.stringify(long.body).length).toBeLessThan(10_000);
    const rows = await t.database.db.selectFrom('workspaces').select('id').where('hostname', '=', 'huge-name').execute();
    expect(rows).toEqual([]);
    const profile = await t.request({ method: 'PUT', url: `/api/v1/users/${ann.id}`, token: ann.token, body: { name: 'n'.repeat(1024 * 1024) } });
    expectError(profile, 413, 'VALIDATION_ERROR');
    expect((await t.request({ url: '/api/v1/users/me', token: ann.token })).body.data.name).toBe('Ann');
  });

  it('answers a missing required body field 400 MISSING_REQUIRED naming it', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'No host' } });
    expectError(res, 400, 'MISSING_REQUIRED');
    expect(res.body.error.details).toMatchObject({ field: 'hostname', reason: 'required' });
    const empty = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token });
    expectError(empty, 400, 'MISSING_REQUIRED');
  });

  it('answers a query parameter of the wrong type 400 INVALID_PARAMETER and a missing one 400 MISSING_REQUIRED', async () => {
    const wrong = await t.request({ url: '/api/v1/users', token: ann.token, query: { workspaceId: ws.id, limit: 'abc' } });
    expectError(wrong, 400, 'INVALID_PARAMETER');
    expect(wrong.body.error.details.field).toBe('limit');
    const tooBig = await t.request({ url: '/api/v1/users', token: ann.token, query: { workspaceId: ws.id, limit: '100000' } });
    expectError(tooBig, 400, 'INVALID_PARAMETER');
    const missing = await t.request({ url: '/api/v1/users', token: ann.token });
    expectError(missing, 400, 'MISSING_REQUIRED');
    expect(missing.body.error.details.field).toBe('workspaceId');
  });

  it('ignores unknown fields', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: 'Extra', hostname: 'extra-fields', id: 'mine', memberCount: 99, color: 'red' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.id).not.toBe('mine');
    expect(res.body.data.memberCount).toBe(1);
    expect(res.body.data).not.toHaveProperty('color');
  });

  it('answers 404 for an id that names nothing, whatever its shape', async () => {
    const ids = [
      'nope',
      '0',
      '00000000-0000-0000-0000-000000000000',
      'x'.repeat(199),
      'x'.repeat(201),
      'y'.repeat(450),
      'z'.repeat(2000),
      "'; drop table users; --",
      '%00',
      'a%00b',
      '%E2%9C%93-%F0%9F%98%80',
      '..%2F..%2Fetc%2Fpasswd',
      '%25',
      '_',
      'with%20space',
    ];
    for (const id of ids) {
      for (const url of [`/api/v1/workspaces/${id}`, `/api/v1/workspaces/${id}/members`, `/api/v1/users/${id}`, `/api/workspaces/${id}`]) {
        const res = await t.request({ url, token: ann.token });
        expect({ url: url.slice(0, 80), status: res.status }).toEqual({ url: url.slice(0, 80), status: 404 });
        expectError(res, 404, 'NOT_FOUND');
      }
      const put = await t.request({ method: 'PUT', url: `/api/v1/workspaces/${ws.id}/members/${id}`, token: ann.token, body: { role: 'viewer' } });
      expect({ id: id.slice(0, 40), status: put.status }).toEqual({ id: id.slice(0, 40), status: 404 });
      const del = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, token: ann.token });
      expect({ id: id.slice(0, 40), status: del.status }).toEqual({ id: id.slice(0, 40), status: 404 });
    }
  });

  it('answers 404 for an id in a body that names nothing, and refuses NUL characters in text without a 500', async () => {
    const add = await t.request({
      method: 'POST',
      url: `/api/v1/workspaces/${ws.id}/members`,
      token: ann.token,
      body: { userId: 'no-such-user', role: 'viewer' },
    });
    expectError(add, 404, 'NOT_FOUND');
    const addNul = await t.request({
      method: 'POST',
      url: `/api/v1/workspaces/${ws.id}/members`,
      token: ann.token,
      body: { userId: 'a\u0000b', role: 'viewer' },
    });
    expect(addNul.status).toBeLessThan(500);
    const nulName = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'a\u0000b', hostname: 'nul-name' } });
    expectError(nulName, 422, 'VALIDATION_ERROR');
    expect(nulName.body.error.details.field).toBe('name');
  });
});

describe('security headers and CORS', () => {
  it('sends security headers fit for an API', async () => {
    const res = await t.request({ url: '/api/v1/workspaces', token: ann.token });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // helmet's switches for HTML sites mean nothing to JSON and are not sent.
    for (const header of ['x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'origin-agent-cluster', 'x-xss-protection']) {
      expect(res.headers[header]).toBeUndefined();
    }
    const err = await t.request({ url: '/api/v1/nothing' });
    expect(err.headers['x-content-type-options']).toBe('nosniff');
  });

  it('allows only the configured origins', async () => {
    const allowed = await t.request({ url: '/api/health', headers: { origin: 'https://app.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(allowed.headers['access-control-expose-headers'])).toContain('X-Request-Id');
    const denied = await t.request({ url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/workspaces',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    const badPreflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/workspaces',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(badPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reads CORS_ORIGINS as a comma-separated list, and answers an actual cross-origin request from an allowed origin only', async () => {
    const config = loadConfig({ CORS_ORIGINS: ' https://a.example , https://b.example ,' });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    const two = await createTestApp({ CORS_ORIGINS: 'https://a.example,https://b.example' });
    try {
      const user = await createUser(two, 'Cors');
      for (const origin of ['https://a.example', 'https://b.example']) {
        const res = await two.request({ url: '/api/v1/users/me', token: user.token, headers: { origin } });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers.vary).toMatch(/Origin/i);
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      }
      // A refused origin still gets its answer (CORS is the browser's check), only without the allow header.
      const refused = await two.request({ url: '/api/v1/users/me', token: user.token, headers: { origin: 'https://a.example.evil' } });
      expect(refused.status).toBe(200);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await two.request({
        method: 'OPTIONS',
        url: '/api/v1/pages',
        headers: { origin: 'https://b.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://b.example');
      expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
      expect(preflight.headers['access-control-max-age']).toBe('600');
    } finally {
      await two.close();
    }
  });

  it('allows any origin with CORS_ORIGINS=*, without credentials', async () => {
    const any = await createTestApp({ CORS_ORIGINS: '*' });
    try {
      const res = await any.request({ url: '/api/health', headers: { origin: 'https://anywhere.example' } });
      expect(res.headers['access-control-allow-origin']).toBe('https://anywhere.example');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await any.request({
        method: 'OPTIONS',
        url: '/api/v1/workspaces',
        headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://other.example');
    } finally {
      await any.close();
    }
  });

  it('sends no CORS headers when no origin is configured', async () => {
    expect(t.config.corsOrigins).toEqual(['https://app.example']);
    const plain = await createTestApp();
    try {
      const res = await plain.request({ url: '/api/health', headers: { origin: 'https://app.example' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});

describe('API reference and health', () => {
  it('serves OpenAPI 3 with the v1 paths and not the alias duplicates', async () => {
    const res = await t.request({ url: '/api/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/v1/auth/signup',
      '/api/v1/auth/login',
      '/api/v1/users/me',
      '/api/v1/api-keys',
      '/api/v1/api-keys/{id}',
      '/api/v1/workspaces',
      '/api/v1/workspaces/{workspaceId}',
      '/api/v1/workspaces/{workspaceId}/members',
      '/api/v1/workspaces/{workspaceId}/members/{userId}',
      '/api/v1/users',
      '/api/v1/users/{userId}',
    ])
      expect(paths).toContain(p);
    // No /api/<resource> alias of a documented /api/v1/<resource> path (unversioned areas live at /api/... only).
    const aliases = paths.filter((p) => p.startsWith('/api/') && !p.startsWith('/api/v1/') && paths.includes(p.replace(/^\/api\//, '/api/v1/')));
    expect(aliases).toEqual([]);
    expect(paths).not.toContain('/api/workspaces');
    expect(paths).not.toContain('/api/users/me');
    const create = res.body.paths['/api/v1/workspaces'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'hostname']));
    expect(create.security).toEqual([{ bearer: [] }]);
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves the browsable reference at /api/docs', async () => {
    let res = await t.request({ url: '/api/docs' });
    for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) {
      const location = String(res.headers.location);
      res = await t.request({ url: location.startsWith('/') ? location : `/api/docs/${location.replace(/^\.\//, '')}` });
    }
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
    // The page's own CSP lets its same-origin scripts run (the API's CSP is default-src 'none').
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await t.request({ url: '/api/docs/static/swagger-initializer.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it('answers health 200 without credentials and without rate-limit headers', async () => {
    const res = await t.request({ url: '/api/health' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers health 503 in the error shape once the database is gone, and other routes 503 too', async () => {
    const own = await createTestApp();
    const user = await createUser(own, 'Gone');
    try {
      await own.database.close();
      const res = await own.request({ url: '/api/health' });
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      const list = await own.request({ url: '/api/v1/workspaces', token: user.token });
      expectError(list, 503, 'SERVICE_UNAVAILABLE');
    } finally {
      await own.close();
    }
  });
});
