import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { joinByInvitation } from '../helpers/factories.js';
import { person, useWebApp, visible } from './harness.js';

const web = useWebApp();

type Who = ReturnType<typeof person> & { id: string; token: string };

async function signUp(label: string): Promise<Who> {
  const who = person(label);
  const res = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...who, id: res.body.data.user.id, token: res.body.data.token };
}

/** A browser context signed in with the cookie session, `width` px wide. */
async function signedIn(who: Who, width = 1280) {
  const page = await web.newPage({ width, height: width < 500 ? 780 : 800 });
  const session = await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
  if (!session.ok()) throw new Error(`session: ${session.status()} ${await session.text()}`);
  return page;
}

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Share “Team plans”' });

describe('the Share dialog', () => {
  it('an editor restricts a page to themself and one person; a space editor left out no longer finds it', async () => {
    // Through the API: a workspace (its admin), an editor who will restrict, a viewer they grant, an editor left out.
    const admin = await signUp('admin');
    const [editor, granted, leftOut] = await Promise.all([signUp('editor'), signUp('granted'), signUp('leftout')]);
    const call = (method: 'POST' | 'PUT', url: string, body: object) => web.t.request({ method, url, token: admin.token, body });
    const ws = (await call('POST', '/api/v1/workspaces', { name: 'Share team', hostname: `share-${Date.now().toString(36)}` })).body.data;
    for (const [who, role] of [
      [editor, 'editor'],
      [granted, 'viewer'],
      [leftOut, 'editor'],
    ] as const)
      await joinByInvitation(web.t, ws.id, admin.token, who, role);
    const space = (await call('POST', '/api/v1/spaces', { workspaceId: ws.id, name: 'Handbook', slug: 'handbook' })).body.data;
    const plans = (await call('POST', '/api/v1/pages', { workspaceId: ws.id, spaceId: space.id, title: 'Team plans', markdown: 'Next quarter.' })).body.data;
    await call('POST', '/api/v1/pages', { workspaceId: ws.id, spaceId: space.id, title: 'Welcome', markdown: 'Hello.' });
    const planPath = `/w/${ws.hostname}/s/handbook/p/${plans.slug}-${plans.id}`;

    // The editor opens the page and its Share dialog: everyone in the workspace reads it, through the public space.
    const page = await signedIn(editor);
    await page.goto(planPath);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = dialogOf(page);
    await visible(dialog.getByRole('heading', { name: 'Who has access' }));
    const people = dialog.getByRole('list', { name: 'People with access' });
    await visible(people.getByText(leftOut.name));
    await visible(people.getByText('Workspace admin'));

    // Restrict it: the editor starts in as editor; taking themself out is explained, not silently refused.
    await dialog.getByLabel('Restrict this page').check();
    const allowed = dialog.getByRole('list', { name: 'Allowed people and groups' });
    await visible(allowed.getByText(editor.name));
    await dialog.getByRole('button', { name: `Remove ${editor.name}` }).click();
    await addGrantee(dialog, granted.name);
    await dialog.getByRole('button', { name: 'Save restriction' }).click();
    await visible(dialog.getByRole('alert').getByText('You would lose access to this page'));
    await web.shot(page, 'share-dialog-lockout');

    // Back in as editor, then saved: the list shows who is left and why.
    await addGrantee(dialog, editor.email);
    await dialog.getByLabel(`Role of ${editor.name}`).getByText('Editor').click();
    await dialog.getByRole('button', { name: 'Save restriction' }).click();
    await visible(dialog.getByRole('button', { name: 'Close' }));
    await expect.poll(() => people.getByRole('listitem').count()).toBe(2);
    await visible(people.getByText(granted.name));
    await expect.poll(() => people.getByText('Restriction', { exact: true }).count()).toBe(2);
    expect(await people.getByText(leftOut.name).count()).toBe(0);
    await web.shot(page, 'share-dialog-1280');

    // The API agrees.
    const access = await web.t.request({ url: `/api/v1/pages/${plans.id}/access`, token: editor.token });
    expect(access.body.data.restriction.grants.map((g: { id: string; role: string }) => [g.id, g.role]).sort()).toEqual(
      [
        [editor.id, 'editor'],
        [granted.id, 'viewer'],
      ].sort(),
    );

    // The space editor who was left out: the page is gone from the tree, and its link is "not found".
    const other = await signedIn(leftOut);
    await other.goto(`/w/${ws.hostname}/s/handbook`);
    const tree = other.getByRole('tree');
    await visible(tree.getByRole('treeitem', { name: 'Welcome', exact: true }));
    expect(await tree.getByRole('treeitem', { name: 'Team plans', exact: true }).count()).toBe(0);
    await other.goto(planPath);
    await visible(other.getByText('This page could not be opened'));
    await visible(other.getByText(/not found/i));
    await web.shot(other, 'share-dialog-left-out');

    // On a phone: the dialog fills the screen and still reads well.
    const phone = await signedIn(editor, 375);
    await phone.goto(planPath);
    await phone.getByRole('button', { name: 'Share', exact: true }).click();
    await visible(dialogOf(phone).getByRole('list', { name: 'People with access' }).getByText(granted.name));
    await phone.waitForTimeout(400); // the modal's opening transition
    await web.shot(phone, 'share-dialog-375');

    // Removing the restriction opens the page to the space again.
    await dialogOf(phone).getByLabel('Restrict this page').uncheck();
    await dialogOf(phone).getByRole('button', { name: 'Remove restriction' }).click();
    await visible(dialogOf(phone).getByRole('list', { name: 'People with access' }).getByText(leftOut.name));
    expect((await web.t.request({ url: `/api/v1/pages/${plans.id}`, token: leftOut.token })).status).toBe(200);
  });
});

/** Searches the workspace from the dialog and adds the first match. */
async function addGrantee(dialog: ReturnType<typeof dialogOf>, query: string) {
  await dialog.getByLabel('Add people or groups').fill(query);
  const option = dialog.getByRole('list', { name: 'Matching people and groups' }).getByRole('listitem').first();
  await visible(option);
  await option.click();
}
