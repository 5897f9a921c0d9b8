import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../helpers/app.js';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  // The app's own logger settings (redaction included), at the most talkative level, into memory.
  t = await createTestApp({}, { logger: { level: 'trace', stream } });
});
afterAll(() => t.close());

describe('logs', () => {
  it('never contain passwords, keys or tokens, and every line of a request carries its request id', async () => {
    const password = 'very-secret-password-1';
    const responses: Response[] = [];
    const call = async (opts: Parameters<TestApp['request']>[0]) => {
      const res = await t.request(opts);
      responses.push(res);
      return res;
    };
    const signup = await call({ method: 'POST', url: '/api/v1/auth/signup', body: { email: 'log@example.com', password, name: 'Log' } });
    expect(signup.status).toBe(201);
    const login = await call({ method: 'POST', url: '/api/v1/auth/login', body: { email: 'log@example.com', password } });
    const jwt = login.body.data.token as string;
    const created = await call({ method: 'POST', url: '/api/v1/api-keys', token: jwt, body: { name: 'logged' } });
    const key = created.body.data.key as string;
    await call({ url: '/api/v1/users/me', token: key });
    await call({ method: 'POST', url: '/api/v1/workspaces', token: key, body: { name: 'Logs', hostname: 'logs' } });
    await call({ url: '/api/v1/workspaces', token: jwt, headers: { 'x-request-id': 'trace-me-1' } });
    // Failures log too: a wrong password, a bad key, a malformed body, a validation error carrying the password.
    await call({ method: 'POST', url: '/api/v1/auth/login', body: { email: 'log@example.com', password: `${password}-wrong` } });
    await call({ url: '/api/v1/users/me', token: `${key}x` });
    await call({
      method: 'POST',
      url: '/api/v1/auth/signup',
      body: `{"email":"x@example.com","password":"${password}",`,
      headers: { 'content-type': 'application/json' },
    });
    await call({ method: 'POST', url: '/api/v1/auth/signup', body: { email: 'not-an-email', password, name: 'Bad' } });
    await call({ method: 'POST', url: '/api/v1/api-keys', token: key, body: { name: 'x'.repeat(300) } });
    expect(responses.every((r) => r.status < 500)).toBe(true);

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(responses.length);
    for (const secret of [password, jwt, key, key.slice(3), signup.body.data.token, jwt.split('.')[2]]) expect(text).not.toContain(secret);

    const parsed = lines.map((l) => JSON.parse(l) as { reqId?: string; msg?: string });
    for (const res of responses) {
      const id = res.headers['x-request-id'] as string;
      const own = parsed.filter((l) => l.reqId === id);
      expect(own.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    }
    expect(parsed.some((l) => l.reqId === 'trace-me-1')).toBe(true);
    // Every line about a request names it.
    for (const l of parsed) if (/request/.test(l.msg ?? '') && l.msg !== 'request failed') expect(l.reqId).toBeTruthy();
  });
});
