import { describe, expect, it } from 'vitest';
import { joinByInvitation } from '../helpers/factories.js';
import { apiSignedInWorkspace, person, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('audit log', () => {
  it('an admin changes a member’s role in Settings → Members, then reads it in Settings → Audit log (desktop and phone)', async () => {
    const { page, token, hostname, workspaceId, who } = await apiSignedInWorkspace(web, 'ana');
    const ben = person('ben');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: ben });
    expect(signup.status).toBe(201);
    await joinByInvitation(web.t, workspaceId, token, { id: signup.body.data.user.id, token: signup.body.data.token }, 'viewer');

    await page.goto(`/w/${hostname}/settings/members`);
    await page.getByRole('combobox', { name: `Role of ${ben.name}`, exact: true }).click();
    await page.getByRole('option', { name: 'Editor' }).click();
    await visible(page.getByText('Role changed to editor'));

    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Audit log' }).first().click();
    await page.waitForURL(`**/settings/audit-log`);
    const table = page.getByRole('table', { name: 'Audit log' });
    const sentence = `${who.name} changed ${ben.name}’s role from viewer to editor`;
    await visible(table.getByRole('row', { name: new RegExp(sentence) }));
    // Ben joined by accepting Ana's invitation.
    await visible(table.getByText(`${ben.name} joined as viewer`));
    await visible(table.getByText(`${who.name} invited ${ben.email} as viewer`));
    await visible(table.getByText(`${who.name} signed in`));
    await web.shot(page, 'audit-log');

    // Only member events: the sign-ins go, the role change stays.
    await page.getByRole('combobox', { name: 'Events', exact: true }).click();
    await page.getByRole('option', { name: 'Members and roles' }).click();
    await visible(table.getByText(sentence));
    await expect.poll(() => table.getByText(`${who.name} signed in`).count()).toBe(0);

    // Ben (an editor now) is not offered the section, and the API refuses him.
    const benRead = await web.t.request({ url: '/api/v1/audit-log', token: signup.body.data.token, query: { workspaceId } });
    expect(benRead.status).toBe(403);

    // Past 50 entries, "Load more" brings the older ones (50 more sign-ins through the API).
    for (let i = 0; i < 50; i++) {
      const login = await web.t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: who.email, password: who.password } });
      expect(login.status).toBe(200);
    }

    // On a phone the entries are cards, readable without scrolling sideways.
    const phone = await web.newPage({ width: 375, height: 800 });
    const session = await phone.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
    expect(session.ok()).toBe(true);
    await phone.goto(`/w/${hostname}/settings/audit-log`);
    const cards = phone.getByRole('list', { name: 'Audit log entries' });
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(50);
    await phone.getByRole('button', { name: 'Load more' }).click();
    await visible(cards.getByText(sentence));
    expect(await cards.getByRole('listitem').count()).toBeGreaterThan(50);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await web.shot(phone, 'audit-log-phone');
  });
});
