import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, person, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('invitations by email', () => {
  it('an admin invites by email; a new browser opens the link, creates the account and lands in the workspace', async () => {
    const admin = await apiSignedInWorkspace(web, 'owner');
    const page = admin.page;
    await page.goto(`/w/${admin.hostname}/settings/members`);
    const guest = person('guest');

    await page.getByLabel('Email to invite').fill(guest.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const link = page.getByRole('textbox', { name: 'Invitation link' });
    await visible(link);
    await visible(page.getByText('Mail is not set up on this service', { exact: false }));
    await web.shot(page, 'invitations-settings');
    const url = await link.inputValue();
    expect(url).toMatch(/\/invite\/[\w-]{43}$/);
    const table = page.getByRole('table', { name: 'Open invitations' });
    await visible(table.getByRole('cell', { name: guest.email }));
    await visible(table.getByRole('cell', { name: 'Editor' }));

    // Someone else, signed out, in a browser of their own.
    const visitor = await web.newPage();
    await visitor.goto(new URL(url).pathname);
    await visible(visitor.getByRole('heading', { name: `${admin.who.name} invited you to ${admin.who.name.split(' ')[1]} team` }));
    await visible(visitor.getByText('Join as editor', { exact: false }));
    await web.shot(visitor, 'invitations-accept');
    await visitor.getByLabel('Name').fill(guest.name);
    await visitor.getByRole('textbox', { name: 'Password' }).fill(guest.password);
    await visitor.getByRole('button', { name: 'Create account and join' }).click();
    await visitor.waitForURL(new RegExp(`/w/${admin.hostname}$`), { timeout: 15_000 });

    // Signed in (cookie session) as the new member, with the invited role.
    const me = await visitor.request.get('/api/v1/auth/session');
    expect(me.status()).toBe(200);
    expect((await me.json()).data.user.email).toBe(guest.email);
    const members = await web.t.request({ url: `/api/v1/workspaces/${admin.workspaceId}/members`, token: admin.token });
    expect(members.body.data).toContainEqual(expect.objectContaining({ email: guest.email, role: 'editor' }));

    // The link worked once.
    await visitor.goto(new URL(url).pathname);
    await visible(visitor.getByText('This invitation has already been used'));

    // And the admin's list no longer shows it.
    await page.reload();
    await visible(page.getByText('No open invitations.'));
  });

  it('an admin revokes an open invitation, and its link stops working', async () => {
    const admin = await apiSignedInWorkspace(web, 'owner');
    const page = admin.page;
    const guest = person('late');
    const created = await web.t.request({
      method: 'POST',
      url: `/api/v1/workspaces/${admin.workspaceId}/invitations`,
      token: admin.token,
      body: { email: guest.email, role: 'viewer' },
    });
    expect(created.status).toBe(201);
    await page.goto(`/w/${admin.hostname}/settings/members`);
    await page.getByRole('button', { name: `Revoke the invitation for ${guest.email}` }).click();
    await visible(page.getByText('No open invitations.'));

    const visitor = await web.newPage();
    await visitor.goto(new URL(created.body.data.url).pathname);
    await visible(visitor.getByText('This invitation was withdrawn', { exact: false }));
  });

  it('someone with an account signs in from the link, comes back and joins', async () => {
    const admin = await apiSignedInWorkspace(web, 'owner');
    const member = person('known');
    expect((await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: member })).status).toBe(201);
    const created = await web.t.request({
      method: 'POST',
      url: `/api/v1/workspaces/${admin.workspaceId}/invitations`,
      token: admin.token,
      body: { email: member.email, role: 'viewer' },
    });
    const visitor = await web.newPage();
    await visitor.goto(new URL(created.body.data.url).pathname);
    await visitor.getByRole('link', { name: 'Sign in to accept' }).click();
    await visitor.getByLabel('Email').fill(member.email);
    await visitor.getByRole('textbox', { name: 'Password' }).fill(member.password);
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    await visitor.getByRole('button', { name: `Join ${admin.who.name.split(' ')[1]} team` }).click();
    await visitor.waitForURL(new RegExp(`/w/${admin.hostname}$`), { timeout: 15_000 });
    const members = await web.t.request({ url: `/api/v1/workspaces/${admin.workspaceId}/members`, token: admin.token });
    expect(members.body.data).toContainEqual(expect.objectContaining({ email: member.email, role: 'viewer' }));
  });

  it('an admin adds an account by user id: it is invited, and its holder joins from "Invitations for you"', async () => {
    const admin = await apiSignedInWorkspace(web, 'owner');
    const guest = await apiSignedInWorkspace(web, 'guest');
    const guestId = (await web.t.request({ url: '/api/v1/users/me', token: guest.token })).body.data.id as string;
    const team = `${admin.who.name.split(' ')[1]} team`;

    await admin.page.goto(`/w/${admin.hostname}/settings/members`);
    await admin.page.getByRole('textbox', { name: 'User id' }).fill(guestId);
    await admin.page.getByRole('button', { name: 'Add member' }).click();
    await visible(admin.page.getByText(`${guest.who.email} was invited as editor: they join when they accept`));
    await visible(admin.page.getByRole('table', { name: 'Open invitations' }).getByRole('cell', { name: guest.who.email }));
    const before = await web.t.request({ url: `/api/v1/workspaces/${admin.workspaceId}/members`, token: admin.token });
    expect(before.body.data.map((m: { id: string }) => m.id)).not.toContain(guestId);

    await guest.page.goto(`/w/${guest.hostname}/settings/members`);
    await visible(guest.page.getByText('Invitations for you'));
    await web.shot(guest.page, 'invitations-received');
    await guest.page.getByRole('button', { name: `Join ${team}` }).click();
    await guest.page.waitForURL(new RegExp(`/w/${admin.hostname}$`), { timeout: 15_000 });
    const after = await web.t.request({ url: `/api/v1/workspaces/${admin.workspaceId}/members`, token: admin.token });
    expect(after.body.data).toContainEqual(expect.objectContaining({ id: guestId, role: 'editor' }));
  });
});
