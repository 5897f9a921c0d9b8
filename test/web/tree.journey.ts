import { generateNKeysBetween } from 'fractional-indexing';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { newId } from '../../src/ids.js';
import { addMember, createUser, createWorkspace as createWorkspaceApi } from '../helpers/factories.js';
import { createWorkspace, person, signUp, useWebApp, visible, type WebApp } from './harness.js';

const web = useWebApp();

/** A JWT for the person signed in through the browser, to read back through the API. */
async function tokenOf(w: WebApp, who: { email: string; password: string }) {
  const res = await w.t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: who.email, password: who.password } });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

async function workspaceIdOf(w: WebApp, token: string, hostname: string) {
  const res = await w.t.request({ url: '/api/v1/workspaces', token });
  return (res.body.data as { id: string; hostname: string }[]).find((ws) => ws.hostname === hostname)!.id;
}

/** `signedInWorkspace`, but waiting for the app to settle before typing: on a loaded machine a late re-render emptied the form. */
async function freshWorkspace(label: string) {
  const page = await web.newPage();
  const who = await signUp(page, person(label));
  await page.waitForLoadState('networkidle');
  const hostname = await createWorkspace(page, `${who.name.split(' ')[1]} team`);
  return { page, who, hostname };
}

const tree = (page: Page) => page.getByRole('tree');
const row = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });
const pageIdInUrl = (page: Page) => /([0-9a-f-]{36})$/.exec(new URL(page.url()).pathname)?.[1] as string;

/** Opens a row's "…" menu and picks an action. */
async function rowAction(page: Page, title: string, action: string) {
  await page.getByRole('button', { name: `Page actions: ${title}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function renameRow(page: Page, from: string, to: string) {
  await rowAction(page, from, 'Rename');
  const input = tree(page).getByLabel('Page title');
  await input.fill(to);
  await input.press('Enter');
  await visible(row(page, to));
}

/** Drags one row onto the middle of another (the pointer moves in steps, as a hand would). */
async function dragOnto(page: Page, source: string, target: string) {
  const from = (await row(page, source).boundingBox())!;
  const to = (await row(page, target).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await visible(page.locator('[data-drop="inside"]'));
  const moved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/v1/pages/'));
  await page.mouse.up();
  expect((await moved).status()).toBe(200);
}

describe('spaces and the page tree', () => {
  it('creates a space and nested pages, renames, drags, trashes and restores through the tree', async () => {
    const { page, who, hostname } = await freshWorkspace('tree');
    onTestFailed(async () => {
      await web.shot(page, 'tree-failed');
      console.log(`[tree] failed at ${page.url()}`);
    });
    await visible(page.getByText('No spaces yet').first());

    await page.getByRole('button', { name: 'New space' }).click();
    await page.getByLabel('Name').fill('Handbook');
    await page.getByLabel('Description').fill('How we work, written down.');
    await page.getByRole('button', { name: 'Create space' }).click();
    await page.waitForURL(`**/w/${hostname}/s/handbook`);
    await visible(page.getByRole('heading', { name: 'Handbook' }));
    await visible(page.getByText('How we work, written down.'));

    // A root page from the space screen, renamed in the tree.
    await page.getByRole('button', { name: 'New page' }).click();
    await page.waitForURL(/\/p\/untitled-[0-9a-f-]{36}$/);
    const guideId = pageIdInUrl(page);
    await visible(row(page, 'Untitled'));
    await renameRow(page, 'Untitled', 'Guide');

    // A child through the row's "New page", renamed inline.
    await rowAction(page, 'Guide', 'New page');
    await page.waitForURL((url) => !url.pathname.endsWith(guideId));
    const chapterId = pageIdInUrl(page);
    await visible(row(page, 'Untitled'));
    expect(await row(page, 'Untitled').getAttribute('aria-level')).toBe('2');
    expect(await row(page, 'Guide').getAttribute('aria-expanded')).toBe('true');
    await renameRow(page, 'Untitled', 'Chapter one');
    await expect.poll(() => row(page, 'Chapter one').getAttribute('aria-selected')).toBe('true');

    // A second root page, dragged under the child.
    await page.getByRole('link', { name: 'Handbook' }).first().click();
    await page.waitForURL(`**/s/handbook`);
    await page.getByRole('button', { name: 'New page' }).click();
    await page.waitForURL((url) => /\/p\/untitled-/.test(url.pathname));
    const appendixId = pageIdInUrl(page);
    await renameRow(page, 'Untitled', 'Appendix');
    expect(await row(page, 'Appendix').getAttribute('aria-level')).toBe('1');
    await dragOnto(page, 'Appendix', 'Chapter one');
    await expect.poll(() => row(page, 'Appendix').getAttribute('aria-level')).toBe('3');

    const token = await tokenOf(web, who);
    await expect.poll(async () => (await web.t.request({ url: `/api/v1/pages/${appendixId}`, token })).body.data.parentId).toBe(chapterId);
    const read = await web.t.request({ url: `/api/v1/pages/${chapterId}`, token });
    expect(read.body.data.parentId).toBe(guideId);

    // After a reload the open pages are open again, and the moved page is where it was dropped.
    await page.reload();
    await visible(row(page, 'Appendix'));
    expect(await row(page, 'Appendix').getAttribute('aria-level')).toBe('3');
    await page.goto(`/w/${hostname}/s/handbook`);
    await visible(row(page, 'Guide'));
    await web.shot(page, 'tree-space');

    // The same moves from the keyboard-reachable menu: out of its parent, then above its new sibling.
    await rowAction(page, 'Appendix', 'Move out of the parent page');
    await expect.poll(() => row(page, 'Appendix').getAttribute('aria-level')).toBe('2');
    await rowAction(page, 'Appendix', 'Move up');
    await expect.poll(() => row(page, 'Appendix').getAttribute('aria-posinset')).toBe('1');
    await expect
      .poll(async () => {
        const res = await web.t.request({
          url: '/api/v1/pages',
          token,
          query: { workspaceId: read.body.data.workspaceId, spaceId: read.body.data.spaceId, parentId: guideId },
        });
        return (res.body.data as { title: string }[]).map((p) => p.title);
      })
      .toEqual(['Appendix', 'Chapter one']);

    // Trash, see it in the space's trash, restore, see it back in the tree.
    await rowAction(page, 'Appendix', 'Move to trash');
    await row(page, 'Appendix').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(`**/s/handbook/trash`);
    await visible(page.getByRole('table', { name: 'Trashed pages' }).getByText('Appendix'));
    await web.shot(page, 'tree-trash');
    await page.getByRole('button', { name: 'Restore Appendix' }).click();
    await visible(page.getByText('The trash is empty'));
    await visible(row(page, 'Appendix'));
    expect(await row(page, 'Appendix').getAttribute('aria-level')).toBe('2');

    // The workspace home lists the space with its page count.
    await page.goto(`/w/${hostname}`);
    await visible(page.getByRole('link', { name: /Handbook/ }).filter({ hasText: '3 pages' }));
    await web.shot(page, 'tree-workspace-home');
  });

  it('lets a viewer read spaces and the tree without ways to change them, on a phone in the dark theme', async () => {
    const owner = await createUser(web.t, 'Owner');
    const viewer = await createUser(web.t, 'Viewer');
    const ws = await createWorkspaceApi(web.t, owner, 'Readers');
    await addMember(web.t, ws.id, owner, viewer, 'viewer');
    const space = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: owner.token, body: { workspaceId: ws.id, name: 'Policies' } });
    const doc = { type: 'doc', content: [{ type: 'paragraph' }] };
    const parent = await web.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: owner.token,
      body: { workspaceId: ws.id, spaceId: space.body.data.id, title: 'Travel', content: doc },
    });
    expect(parent.status).toBe(201);

    const page = await web.newPage({ width: 375, height: 740 });
    await page.goto('/login');
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('correct-horse');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/w/${ws.hostname}`);
    await visible(page.getByRole('heading', { name: 'Spaces' }));
    const card = page.getByRole('main').getByRole('link', { name: /^Policies/ });
    await visible(card);
    expect(await page.getByRole('button', { name: 'New space' }).count()).toBe(0);

    await card.click();
    await visible(page.getByRole('heading', { name: 'Policies' }));
    expect(await page.getByRole('button', { name: 'New page' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await page.getByRole('button', { name: 'Open sidebar' }).click();
    await visible(row(page, 'Travel'));
    expect(await page.getByRole('button', { name: 'Page actions: Travel' }).count()).toBe(0);
    await web.shot(page, 'tree-viewer-phone-dark');
  });

  it('shows a space of 10,000 pages with a bounded number of rows, expands a root and scrolls to the end', async () => {
    const { page, who, hostname } = await freshWorkspace('big');
    const token = await tokenOf(web, who);
    const workspaceId = await workspaceIdOf(web, token, hostname);
    const created = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Archive' } });
    expect(created.status).toBe(201);
    const space = created.body.data as { id: string; slug: string };
    const userId = (await web.t.request({ url: '/api/v1/users/me', token })).body.data?.id ?? null;

    // 100 roots × 99 children straight into the database: the API's speed is not what this case measures.
    const started = Date.now();
    const now = new Date();
    const pad = (n: number) => String(n).padStart(3, '0');
    const row0 = (title: string, parentId: string | null, position: string) => ({
      id: newId(),
      workspaceId,
      spaceId: space.id,
      parentId,
      title,
      slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      icon: null,
      content: JSON.stringify({ type: 'doc', content: [] }),
      textContent: '',
      position,
      version: 1,
      createdBy: userId,
      updatedBy: userId,
      createdAt: now,
      updatedAt: now,
    });
    const rootKeys = generateNKeysBetween(null, null, 100);
    const childKeys = generateNKeysBetween(null, null, 99);
    const roots = rootKeys.map((k, i) => row0(`Root ${pad(i + 1)}`, null, k));
    const children = roots.flatMap((r, i) => childKeys.map((k, j) => row0(`Child ${pad(i + 1)}.${pad(j + 1)}`, r.id, k)));
    const db = web.t.database.db;
    await db.insertInto('pages').values(roots).execute();
    for (let i = 0; i < children.length; i += 1000)
      await db
        .insertInto('pages')
        .values(children.slice(i, i + 1000))
        .execute();
    console.log(`[tree] inserted ${roots.length + children.length} pages in ${Date.now() - started} ms`);

    const tApi = Date.now();
    const level = await web.t.request({
      url: '/api/v1/pages',
      token,
      query: { workspaceId, spaceId: space.id, parentId: 'null', view: 'tree', limit: '100' },
    });
    expect(level.body.data).toHaveLength(100);
    console.log(`[tree] API: one level of 100 roots in ${Date.now() - tApi} ms`);
    const t0 = Date.now();
    await page.goto(`/w/${hostname}/s/${space.slug}`);
    await visible(row(page, 'Root 001'), 20_000);
    console.log(`[tree] time to first tree render with 100 roots (10,000 pages): ${Date.now() - t0} ms`);
    const rowsInDom = () => page.locator('[role="treeitem"]').count();
    expect(await rowsInDom()).toBeLessThan(60);

    const t1 = Date.now();
    await page.getByRole('button', { name: 'Expand Root 001' }).click();
    await visible(row(page, 'Child 001.001'));
    console.log(`[tree] time to show 99 children: ${Date.now() - t1} ms`);
    expect(await row(page, 'Child 001.001').getAttribute('aria-setsize')).toBe('99');
    expect(await rowsInDom()).toBeLessThan(60);

    // Scrolling the tree to its end reaches the 99th child and the last root, still with few rows in the DOM.
    await tree(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await visible(row(page, 'Root 100'));
    expect(await rowsInDom()).toBeLessThan(60);
    await tree(page).evaluate((el) => el.scrollTo({ top: 98 * 30 }));
    await visible(row(page, 'Child 001.099'));
    await web.shot(page, 'tree-10k');
  }, 180_000);
});
