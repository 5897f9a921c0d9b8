import { describe, expect, it } from 'vitest';
import { person, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('a workspace-scoped API key from Settings', () => {
  it('limits a new key to one of two workspaces, shows it in the list, and the key sees only that workspace', async () => {
    const owner = person('scoper');
    const token = (await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: owner })).body.data.token as string;
    const make = async (name: string) =>
      (await web.t.request({ method: 'POST', url: '/api/v1/workspaces', token, body: { name, hostname: `${name.toLowerCase()}-${Date.now().toString(36)}` } }))
        .body.data as { id: string; hostname: string };
    const north = await make('North');
    await make('South');
    const page = await web.newPage();
    expect((await page.request.post('/api/v1/auth/session', { data: { email: owner.email, password: owner.password } })).ok()).toBe(true);

    await page.goto(`/w/${north.hostname}/settings/api-keys`);
    await page.getByRole('button', { name: 'New API key' }).click();
    const form = page.getByRole('dialog', { name: 'New API key' });
    await form.getByLabel('Key name').fill('North bot');
    await form.getByRole('combobox', { name: 'Workspace', exact: true }).click();
    await page.getByRole('option', { name: 'North' }).click();
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
    const key = await (await visible(shown.getByLabel('API key'))).inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /North bot/ });
    await visible(row);
    await visible(row.getByText('Only in North'));
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.waitForTimeout(300); // the modal's closing transition
    await web.shot(page, 'settings-api-key-workspace');

    const listed = await web.t.request({ url: '/api/v1/workspaces', token: key });
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([north.id]);
  });
});
