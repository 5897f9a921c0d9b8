import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../helpers/app.js';
import { invite, tokenOf as invitationTokenOf } from '../invitations/helpers.js';
import { sharedSetup, publish, tokenOf as shareTokenOf } from '../shares/helpers.js';

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

  it('keep no secret of a URL: reset, invitation and share links, OAuth codes and token parameters are redacted (and not in bug reports either)', async () => {
    const { workspace, admin, editor, page } = await sharedSetup(t);
    const reset = await t.request({ method: 'POST', url: `/api/v1/workspaces/${workspace.id}/members/${editor.id}/password-reset`, token: admin.token });
    expect(reset.status).toBe(201);
    const resetToken = reset.body.data.url.split('/reset-password/')[1] as string;
    const invitationToken = invitationTokenOf((await invite(t, admin, workspace.id, 'logged-invitee@example.com')).url);
    const shared = await publish(t, admin, page.id);
    expect(shared.status).toBe(201);
    const shareToken = shareTokenOf(shared.body.data.url);
    const secrets = [
      resetToken,
      invitationToken,
      shareToken,
      'oauth-code-0123456789',
      'oauth-state-0123456789',
      'query-token-0123456789',
      'query-key-0123456789',
    ];

    const before = lines.length;
    const visits = [
      // The web app's links (served by the app, or 503 when it is not built: logged either way).
      `/reset-password/${resetToken}`,
      `/invite/${invitationToken}`,
      `/s/${shareToken}`,
      `/s/${shareToken}/${page.id}`,
      // The API routes behind them, versioned and not.
      `/api/v1/invitations/${invitationToken}`,
      `/api/invitations/${invitationToken}`,
      `/api/v1/public/shares/${shareToken}`,
      `/api/public/shares/${shareToken}/pages/${page.id}`,
      // Secrets in a query string, whatever the route.
      '/api/v1/auth/oidc/callback?code=oauth-code-0123456789&state=oauth-state-0123456789',
      '/api/v1/users/me?token=query-token-0123456789&Key=query-key-0123456789&workspaceId=kept',
    ];
    for (const url of visits) await t.request({ url, token: admin.token });
    const accepted = await t.request({ method: 'POST', url: `/api/v1/invitations/${invitationToken}/accept`, token: admin.token });
    expect(accepted.status).toBeLessThan(500);

    const logged = lines.slice(before).join('\n');
    for (const secret of secrets) expect(logged).not.toContain(secret);
    const urls = lines
      .slice(before)
      .map((l) => JSON.parse(l) as { msg?: string; req?: { url: string } })
      .filter((l) => l.msg === 'incoming request')
      .map((l) => l.req?.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/reset-password/[redacted]',
        '/invite/[redacted]',
        `/s/[redacted]/${page.id}`,
        '/api/v1/invitations/[redacted]',
        '/api/v1/invitations/[redacted]/accept',
        `/api/public/shares/[redacted]/pages/${page.id}`,
        '/api/v1/auth/oidc/callback?code=[redacted]&state=[redacted]',
        '/api/v1/users/me?token=[redacted]&Key=[redacted]&workspaceId=kept',
      ]),
    );

    // A bug report's user journey (the admin's recent requests, linked by request id) names route patterns only.
    const report = await t.request({
      method: 'POST',
      url: '/api/bug-reports/create',
      token: admin.token,
      body: { title: 'x', source: 'user:command', workspaceId: workspace.id },
    });
    expect(report.status).toBe(201);
    const journey = JSON.stringify(report.body.data.userJourney);
    expect(journey).toContain('/api/v1/invitations/:token');
    for (const secret of secrets) expect(journey).not.toContain(secret);
  });
});
