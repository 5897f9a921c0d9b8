import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser as apiUser, createWorkspace as apiWorkspace, USER_PASSWORD } from '../helpers/factories.js';

/** Debian's chromium (browser downloads do not work here); flags for a headless machine. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENS = path.resolve('.tmp/screens');

export interface WebApp {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A new browser context (its own cookies) and page; desktop size unless given. */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  /** A full-page screenshot into .tmp/screens/<name>.png (kept out of git), to look at. */
  shot(page: Page, name: string): Promise<string>;
}

/** The built app served by a real service (PGlite or PostgreSQL like every test) on a socket, and a browser. */
export function useWebApp(): WebApp {
  const web = {} as WebApp;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    web.t = await createTestApp({ WEB_DIST_DIR: inject('webDist') } as never);
    web.baseUrl = await web.t.app.listen({ host: '127.0.0.1', port: 0 });
    web.browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    web.newPage = async ({ width = 1280, height = 800 } = {}) => {
      const context = await web.browser.newContext({ baseURL: web.baseUrl, viewport: { width, height } });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
      return page;
    };
    web.shot = async (page, name) => {
      mkdirSync(SCREENS, { recursive: true });
      const file = path.join(SCREENS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    };
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await web.browser?.close();
    await web.t?.close();
  });
  return web;
}

/**
 * How long a journey waits for something to show. A page's editor shows after the co-editing socket's first sync,
 * which takes 1–2 s here but has taken over 10 s on the CI machine while two journey files, their browsers and the
 * background indexing of the pages they create share its two cores.
 */
export const VISIBLE_TIMEOUT_MS = 20_000;

/**
 * Waits until the locator is visible (Playwright's auto-wait; fails the test after the timeout). On failure the
 * error says what the screen showed instead (its address, alerts and headings) and a screenshot is kept, so a red CI
 * run can be read without running it again.
 */
export async function visible(locator: Locator, timeout = VISIBLE_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${await whatTheScreenShows(locator.page())}`);
  }
  return locator;
}

async function whatTheScreenShows(page: Page): Promise<string> {
  const file = path.join(SCREENS, `failed-${Date.now().toString(36)}.png`);
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: file, fullPage: true }).catch(() => {});
  const seen = await page
    .evaluate(() => {
      const texts = (selector: string) => [...document.querySelectorAll(selector)].map((e) => e.textContent?.trim().slice(0, 120)).filter(Boolean);
      return {
        alerts: texts('[role=alert], [role=status]'),
        headings: texts('h1, h2'),
        busy: texts('[aria-busy=true]').length,
        focused: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName,
        caret: getSelection()?.anchorNode?.textContent?.slice(0, 60),
      };
    })
    .catch((e: Error) => ({ unreadable: e.message }));
  return `The screen showed instead: ${page.url()} ${JSON.stringify(seen)} (screenshot ${file})`;
}

let people = 0;
/** A unique person for a journey. */
export function person(label = 'user') {
  const n = `${Date.now().toString(36)}${(++people).toString(36)}`;
  return { name: `${label[0].toUpperCase()}${label.slice(1)} ${n}`, email: `${label}-${n}@example.test`, password: 'correct horse battery staple' };
}

/** Signs up through the form; lands on the new-workspace form (a new account has no workspace). */
export async function signUp(page: Page, who = person()) {
  await page.goto('/signup');
  await page.getByLabel('Name').fill(who.name);
  await page.getByLabel('Email').fill(who.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/new-workspace');
  return who;
}

/** Creates a workspace through the form and waits for its home; returns its hostname. */
export async function createWorkspace(page: Page, name: string) {
  await page.getByLabel('Workspace name').fill(name);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.waitForURL(/\/w\/[^/]+$/, { timeout: 10_000 }).catch(async (err) => {
    const alert = await page.getByRole('alert').allTextContents();
    throw new Error(`creating the workspace did not lead to it (${alert.join(' | ') || 'no alert shown'}): ${err.message}`);
  });
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

/** A signed-up person in a new workspace of their own, in a fresh browser context. */
export async function signedInWorkspace(web: WebApp, label = 'owner', options?: { width?: number; height?: number }) {
  const page = await web.newPage(options);
  const who = await signUp(page, person(label));
  const hostname = await createWorkspace(page, `${who.name.split(' ')[1]} team`);
  return { page, who, hostname };
}

/** A person and their workspace made through the API; returns them with a bearer token to set up and read back data. */
async function apiPersonAndWorkspace(web: WebApp, label: string) {
  const who = person(label);
  const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const token = signup.body.data.token as string;
  const hostname = `ws-${Date.now().toString(36)}${(++people).toString(36)}`;
  const created = await web.t.request({ method: 'POST', url: '/api/v1/workspaces', token, body: { name: `${who.name.split(' ')[1]} team`, hostname } });
  if (created.status !== 201) throw new Error(`workspace: ${created.status} ${JSON.stringify(created.body)}`);
  return { who, token, hostname: created.body.data.hostname as string, workspaceId: created.body.data.id as string };
}

/** A person (a factory-made user unless a password is given) in a fresh browser context signed in with the cookie session (`POST /api/v1/auth/session`). */
export async function sessionSignedIn(web: WebApp, who: { email: string; password?: string }, options?: { width?: number; height?: number }): Promise<Page> {
  const page = await web.newPage(options);
  const session = await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password ?? USER_PASSWORD } });
  if (!session.ok()) throw new Error(`session: ${session.status()} ${await session.text()}`);
  return page;
}

/** A factory-made user signed in through the sign-in form, in a fresh browser context (for journeys whose screen is not sign-in). */
export async function formSignedIn(web: WebApp, user: { email: string }, options?: { width?: number; height?: number }): Promise<Page> {
  const page = await web.newPage(options);
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(USER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

/**
 * A person and a workspace made through the API, and a browser context signed in with the cookie session
 * (`POST /api/v1/auth/session`), for journeys whose subject is not signing in.
 */
export async function apiSignedInWorkspace(web: WebApp, label = 'owner', options?: { width?: number; height?: number }) {
  const made = await apiPersonAndWorkspace(web, label);
  const page = await sessionSignedIn(web, made.who, options);
  return { page, ...made };
}

/** The same, signed in through the sign-in form after following a deep link to the workspace. */
export async function signedInWithApi(web: WebApp, label = 'member', options?: { width?: number; height?: number }) {
  const made = await apiPersonAndWorkspace(web, label);
  const page = await web.newPage(options);
  await page.goto(`/w/${made.hostname}`);
  await page.waitForURL('**/login?next=*');
  await page.getByLabel('Email').fill(made.who.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(made.who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/w/${made.hostname}`);
  return { page, ...made };
}

/** Where journeys make pages through the API: whose token, which workspace and space. */
export interface PagePlace {
  token: string;
  workspaceId: string;
  spaceId: string;
}

/** A page made through the API from Markdown or a ProseMirror document; its id and slug. */
export async function createPage(web: WebApp, place: PagePlace, title: string, body: { markdown?: string; content?: unknown; parentId?: string }) {
  const res = await web.t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: place.token,
    body: { workspaceId: place.workspaceId, spaceId: place.spaceId, title, ...body },
  });
  if (res.status !== 201) throw new Error(`page: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; slug: string };
}

/** A page's address in the app. */
export const pageAddress = (hostname: string, spaceSlug: string, p: { id: string; slug: string }) => `/w/${hostname}/s/${spaceSlug}/p/${p.slug}-${p.id}`;

/** A page read back through the API, its body as Markdown. */
export async function readPage(web: WebApp, token: string, id: string) {
  return (await web.t.request({ url: `/api/v1/pages/${id}`, token, query: { format: 'markdown' } })).body.data as { markdown: string; title: string };
}

/** The page read back once its stored Markdown has `text` ("Saved" means the co-editing server has the edit; the page row follows). */
export async function storedWith(web: WebApp, token: string, id: string, text: string, timeout: number) {
  await expect.poll(async () => (await readPage(web, token, id)).markdown, { timeout }).toContain(text);
  return readPage(web, token, id);
}

/** The page's editable content. */
export const editorOf = (page: Page) => page.getByRole('textbox', { name: 'Page content' });

/** Where `word` sits inside the editor's paragraph, heading or list item holding it, relative to that element (for a double click that selects it). */
export async function wordAt(editor: Locator, word: string) {
  return editor.evaluate((root, w) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent?.indexOf(w) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + w.length);
      const r = range.getBoundingClientRect();
      const block = (n.parentElement?.closest('p, h1, h2, h3, li') ?? n.parentElement) as HTMLElement;
      const b = block.getBoundingClientRect();
      return { x: r.left - b.left + r.width / 2, y: r.top - b.top + r.height / 2 };
    }
    throw new Error(`no ${w}`);
  }, word);
}

/** Pastes plain text into the page's editor at the caret, as the clipboard would give it. */
export async function pasteText(page: Page, text: string) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.querySelector('[aria-label="Page content"]')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/**
 * Puts the caret `offset` characters into the line starting with `text`, from the keyboard (Home, then ArrowRight),
 * once the line has been clicked. ProseMirror syncs a click's selection a moment after the mouse is released; a key
 * pressed in that moment is undone under load. So, as a person would, the keys are pressed again until the browser's
 * caret is seen where they put it, and the next key waits two frames more for the editor to have read it.
 */
export async function caretInto(page: Page, text: string, offset: number) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Home');
    for (let k = 0; k < offset; k++) await page.keyboard.press('ArrowRight');
    const seen = await page
      .waitForFunction(
        ([t, o]) => {
          const caret = getSelection();
          return !!caret?.anchorNode?.textContent?.startsWith(t as string) && caret.anchorOffset === o;
        },
        [text, offset] as const,
        { timeout: 3_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (seen) break;
    if (attempt === 3) throw new Error(`the caret never reached ${offset} characters into "${text}"\n${await whatTheScreenShows(page)}`);
  }
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Types at a brisk human pace (15 ms a key) rather than all at once. */
export const typeIn = (page: Page, text: string) => page.keyboard.type(text, { delay: 15 });

/** A space "Handbook" (slug `handbook`) with one page written in Markdown, made through the API; its ids and the page's slug. */
export async function handbookWithPage(web: WebApp, token: string, workspaceId: string, title: string, markdown: string) {
  const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook', slug: 'handbook' } })).body.data;
  const made = await createPage(web, { token, workspaceId, spaceId: space.id }, title, { markdown });
  return { spaceId: space.id as string, pageId: made.id, slug: made.slug };
}

/** An owner and a viewer (signed up through the API) of a new workspace `name` with a space "Handbook". */
export async function ownerViewerHandbook(web: WebApp, name: string) {
  const owner = await apiUser(web.t, 'Owner');
  const viewer = await apiUser(web.t, 'Viewer');
  const ws = await apiWorkspace(web.t, owner, name);
  await addMember(web.t, ws.id, owner, viewer, 'viewer');
  const res = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: owner.token, body: { workspaceId: ws.id, name: 'Handbook' } });
  return { owner, viewer, ws, space: res.body.data };
}
