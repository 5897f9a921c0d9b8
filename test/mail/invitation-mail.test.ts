import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, type TestUser, verifyEmail } from '../helpers/factories.js';
import { invite, tokenOf } from '../invitations/helpers.js';
import { closedPort, decodeQuotedPrintable, startSmtpServer } from './smtp.js';

const PUBLIC_URL = 'http://kb.mail.test:8080';

describe('with a mail server (SMTP_URL)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let admin: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'kb <kb@mail.test>', PUBLIC_URL });
    admin = await createUser(t, 'Ada');
    // Invitations are mailed only for inviters whose own email is verified (test/auth/email-verification.test.ts).
    await verifyEmail(t, admin);
    workspaceId = (await createWorkspace(t, admin, 'Lab Notes')).id;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails the link to the invited address, and the mailed link works', async () => {
    const email = `mailed-${Date.now().toString(36)}@example.test`;
    const created = await invite(t, admin, workspaceId, email, 'editor');
    expect(created.mailed).toBe(true);
    expect(created).not.toHaveProperty('mailError');

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('kb@mail.test');
    expect(mail.to).toEqual([email]);
    expect(mail.raw).toMatch(/^Subject: Ada invited you to Lab Notes on kb\r?$/m);
    expect(mail.raw).toMatch(new RegExp(`^To: ${email}\\r?$`, 'm'));
    const body = decodeQuotedPrintable(mail.raw);
    const links = [...new Set(body.match(/http:\/\/kb\.mail\.test:8080\/invite\/[\w-]+/g))];
    expect(links).toEqual([created.url]);
    expect(body).toContain('as editor');

    const preview = await t.request({ url: `/api/v1/invitations/${tokenOf(links[0])}` });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ email, role: 'editor', workspace: { name: 'Lab Notes' }, inviter: { name: 'Ada' } });
    const accepted = await t.request({
      method: 'POST',
      url: `/api/v1/invitations/${tokenOf(links[0])}/accept`,
      body: { name: 'Mo', password: 'correct-horse' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const members = await t.request({ url: `/api/v1/workspaces/${workspaceId}/members`, token: admin.token });
    expect(members.body.data).toContainEqual(expect.objectContaining({ email, role: 'editor' }));
  });
});

describe('when the mail server cannot be reached', () => {
  let t: TestApp;
  let admin: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, PUBLIC_URL });
    admin = await createUser(t, 'Ada');
    // Invitations are mailed only for inviters whose own email is verified (test/auth/email-verification.test.ts).
    await verifyEmail(t, admin);
    workspaceId = (await createWorkspace(t, admin, 'Lab Notes')).id;
  });
  afterAll(() => t.close());

  it('still creates the invitation: 201 with mailed false and a short reason, and the link works', async () => {
    const email = `unmailed-${Date.now().toString(36)}@example.test`;
    const created = await invite(t, admin, workspaceId, email, 'viewer');
    expect(created.mailed).toBe(false);
    expect(created.mailError).toMatch(/^The mail server could not be reached \(E[A-Z]+\)$/);
    const listed = await t.request({ url: `/api/v1/workspaces/${workspaceId}/invitations`, token: admin.token });
    expect(listed.body.data).toContainEqual(created.invitation);
    expect((await t.request({ url: `/api/v1/invitations/${tokenOf(created.url)}` })).status).toBe(200);
  });
});
