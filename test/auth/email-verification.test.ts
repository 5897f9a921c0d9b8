import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, type TestUser } from '../helpers/factories.js';
import { decodeQuotedPrintable, startSmtpServer } from '../mail/smtp.js';

const PUBLIC_URL = 'http://kb.verify.test';
const REQUEST = '/api/v1/auth/verify-email';
const CONFIRM = '/api/v1/auth/verify-email/confirm';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const me = (user: TestUser) => t.request({ url: '/api/v1/users/me', token: user.token });
/** The verification links mailed to `email`, newest last. */
const linksMailedTo = (email: string) =>
  smtp.received
    .filter((m) => m.to.includes(email))
    .flatMap((m) => decodeQuotedPrintable(m.raw).match(/http:\/\/kb\.verify\.test\/verify-email\/[\w-]+/g) ?? []);
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

function expectDeadLink(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'token', reason: 'invalid_or_expired' } });
}

describe('verifying your email', () => {
  it('mails a one-time link (never answered), which marks the email verified for whoever opens it', async () => {
    const ann = await createUser(t, 'Ann');
    expect((await me(ann)).body.data.emailVerified).toBe(false);
    const asked = await t.request({ method: 'POST', url: REQUEST, token: ann.token });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.data).toEqual({ email: ann.email, verified: false, mailed: true, expiresAt: expect.any(String) });
    const links = linksMailedTo(ann.email);
    expect(links).toHaveLength(1);
    expect(JSON.stringify(asked.body)).not.toContain(tokenOf(links[0]));
    expect(smtp.received.find((m) => m.to.includes(ann.email))?.raw).toMatch(/^Subject: Verify your email address for kb\r?$/m);

    const stored = await t.database.db.selectFrom('emailVerifications').selectAll().where('userId', '=', ann.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(links[0]));

    // Opened from the mail: no sign-in needed.
    const confirmed = await t.request({ method: 'POST', url: CONFIRM, body: { token: tokenOf(links[0]) } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ data: { email: ann.email, verified: true } });
    expect((await me(ann)).body.data.emailVerified).toBe(true);
    expectDeadLink(await t.request({ method: 'POST', url: CONFIRM, body: { token: tokenOf(links[0]) } }));
    const audit = await t.database.db.selectFrom('auditLog').selectAll().where('action', '=', 'auth.email_verified').where('targetId', '=', ann.id).execute();
    expect(audit).toMatchObject([{ workspaceId: null, actorId: ann.id, details: { email: ann.email, via: 'link' } }]);

    // Verified already: nothing more is mailed.
    const again = await t.request({ method: 'POST', url: REQUEST, token: ann.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ email: ann.email, verified: true, mailed: false });
    expect(linksMailedTo(ann.email)).toHaveLength(1);
  });

  it('answers an unknown, expired or malformed link the same way, and validates the body', async () => {
    const bob = await createUser(t, 'Bob');
    await t.request({ method: 'POST', url: REQUEST, token: bob.token });
    const [link] = linksMailedTo(bob.email);
    await t.database.db
      .updateTable('emailVerifications')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', bob.id)
      .execute();
    expectDeadLink(await t.request({ method: 'POST', url: CONFIRM, body: { token: tokenOf(link) } }));
    expectDeadLink(await t.request({ method: 'POST', url: CONFIRM, body: { token: 'no-such-token' } }));
    expect((await t.request({ method: 'POST', url: CONFIRM, body: {} })).status).toBe(400);
    expect((await me(bob)).body.data.emailVerified).toBe(false);
  });

  it('mails at most five links an hour per account (429 with Retry-After), and needs a sign-in to ask', async () => {
    const cy = await createUser(t, 'Cy');
    const key = await createApiKey(t, cy);
    for (let i = 0; i < 5; i++) expect((await t.request({ method: 'POST', url: REQUEST, token: i % 2 ? key : cy.token })).status).toBe(202);
    const refused = await t.request({ method: 'POST', url: REQUEST, token: cy.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'too_many_verification_mails', limit: 5 } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(linksMailedTo(cy.email)).toHaveLength(5);
    expect((await t.request({ method: 'POST', url: REQUEST })).status).toBe(401);
  });

  it('without SMTP_URL there is nothing to mail: 404 mail_disabled', async () => {
    const quiet = await siblingApp(t, {}, { SMTP_URL: undefined });
    try {
      const dee = await createUser(t, 'Dee');
      const res = await quiet.request({ method: 'POST', url: REQUEST, token: dee.token });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'mail_disabled' } });
    } finally {
      await quiet.app.close();
    }
  });
});

describe('invitations are mailed only by people whose email is verified', () => {
  it('an unverified inviter gets the link to pass on (mailed false, why); verified, it is mailed', async () => {
    const eve = await createUser(t, 'Eve');
    const workspace = (
      await t.request({ method: 'POST', url: '/api/v1/workspaces', token: eve.token, body: { name: 'Eve co', hostname: `eve-${Date.now().toString(36)}` } })
    ).body.data;
    const inviteAs = (email: string) =>
      t.request({ method: 'POST', url: `/api/v1/workspaces/${workspace.id}/invitations`, token: eve.token, body: { email, role: 'viewer' } });
    const before = smtp.received.length;
    const unmailed = await inviteAs('target-1@elsewhere.test');
    expect(unmailed.status).toBe(201);
    expect(unmailed.body.data).toMatchObject({ mailed: false, mailError: expect.stringContaining('verified') });
    expect(smtp.received.length).toBe(before);

    await t.request({ method: 'POST', url: REQUEST, token: eve.token });
    const [link] = linksMailedTo(eve.email);
    expect((await t.request({ method: 'POST', url: CONFIRM, body: { token: tokenOf(link) } })).status).toBe(200);
    const mailed = await inviteAs('target-2@elsewhere.test');
    expect(mailed.body.data.mailed).toBe(true);
    expect(smtp.received.filter((m) => m.to.includes('target-2@elsewhere.test'))).toHaveLength(1);
  });
});
