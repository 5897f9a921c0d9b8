import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, createPage, editorOf, handbookWithPage, pageAddress, pasteText, readPage, useWebApp, visible, type WebApp } from './harness.js';

/**
 * Embeds: a page holding two (one far down), the frame only once a block comes near the screen, the slash menu's
 * "Embed" offering a lookalike host as a link card, refusing a `javascript:` link and embedding an allowed link; a
 * link it cannot embed made a link card. No provider is reachable from here: their players
 * are answered by a stand-in page (routed in the browser), which also shows the app's CSP lets those frames load.
 */

const web: WebApp = useWebApp();
const YT = 'dQw4w9WgXcQ';
const YOUTUBE = `https://www.youtube.com/watch?v=${YT}`;
const FIGMA = 'https://www.figma.com/design/RQig21VLvHtVpfQBSRUQWw/Logo';
const VIMEO = 'https://vimeo.com/76979871';
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-presentation';
const FILLER = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of the notes, long enough to take a line on a phone.`).join('\n\n');
const MARKDOWN = `Kick-off recording:\n\n::embed[${YOUTUBE}]\n\n${FILLER}\n\n::embed[${FIGMA}]\n\nThe end.\n`;

const SHORT = `Kick-off recording:\n\n::embed[${YOUTUBE}]\n\nThe board:\n\n::embed[${FIGMA}]\n\nThe end.\n`;

let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
/** A long page (an embed at the top, one far below) and a short one (two embeds on one screen). */
let longUrl: string;
let shortUrl: string;
let shortId: string;
let shortSpaceId: string;

/** Every request to another site is answered here: a provider's player by a stand-in naming it, anything else refused. */
async function standInPlayers(page: Page) {
  await page.route(/^https:\/\//, (route) => {
    const host = new URL(route.request().url()).hostname;
    if (!['www.youtube-nocookie.com', 'www.figma.com', 'player.vimeo.com'].includes(host)) return route.abort();
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><body style="margin:0;display:grid;place-items:center;height:100vh;background:#333;color:#fff;font:16px sans-serif">Player stand-in: ${host}</body>`,
    });
  });
}

const markdownOf = async () => (await readPage(web, owner.token, shortId)).markdown;

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'owner');
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Kick-off notes', MARKDOWN);
  longUrl = pageAddress(owner.hostname, 'handbook', { id: made.pageId, slug: made.slug });
  const short = await createPage(web, { token: owner.token, workspaceId: owner.workspaceId, spaceId: made.spaceId }, 'Kick-off', { markdown: SHORT });
  shortId = short.id;
  shortSpaceId = made.spaceId;
  shortUrl = pageAddress(owner.hostname, 'handbook', short);
});

describe('embeds', () => {
  it('frames allowed players lazily, offers a lookalike as a link card, and embeds an allowed link', async () => {
    const page = owner.page;
    await standInPlayers(page);
    const response = await page.goto(longUrl);
    // The app's CSP frames exactly the providers' players.
    const csp = String(response?.headers()['content-security-policy']);
    expect(csp).toContain('frame-src https://codepen.io https://docs.google.com https://embed.figma.com https://miro.com https://player.vimeo.com');
    await visible(editorOf(page));

    // The first embed is on screen: its frame, with the address the allow-list builds and the sandbox.
    const youtube = page.locator('figure.kb-embed[data-embed="youtube"]');
    const frame = youtube.locator('iframe');
    await visible(frame);
    expect(await frame.getAttribute('src')).toBe(`https://www.youtube-nocookie.com/embed/${YT}`);
    expect(await frame.getAttribute('sandbox')).toBe(SANDBOX);
    expect(await frame.getAttribute('loading')).toBe('lazy');
    expect(await frame.getAttribute('allow')).toBe('fullscreen');
    expect(await frame.getAttribute('title')).toBe('YouTube embed');
    expect(await frame.getAttribute('referrerpolicy')).toBe('strict-origin-when-cross-origin');
    await visible(page.frameLocator('figure.kb-embed[data-embed="youtube"] iframe').getByText('Player stand-in: www.youtube-nocookie.com'));
    expect(await youtube.locator('figcaption a').getAttribute('href')).toBe(YOUTUBE);

    // The second is a screen and more below: a placeholder with its provider and link, no frame yet.
    const figma = page.locator('figure.kb-embed[data-embed="figma"]');
    expect(await figma.locator('iframe').count()).toBe(0);
    expect(await figma.locator('.kb-embed-placeholder strong').textContent()).toBe('Figma');
    expect(await figma.locator('.kb-embed-placeholder a').getAttribute('href')).toBe(FIGMA);
    await figma.scrollIntoViewIfNeeded();
    await visible(figma.locator('iframe'));
    expect(await figma.locator('iframe').getAttribute('src')).toBe(
      `https://www.figma.com/embed?embed_host=kb&url=${encodeURIComponent('https://www.figma.com/design/RQig21VLvHtVpfQBSRUQWw')}`,
    );
    expect(await figma.locator('iframe').getAttribute('sandbox')).toBe(SANDBOX);

    // A frame of another host is refused by the CSP, whatever puts it in the page.
    const blocked = await page.evaluate(() =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
        const f = document.createElement('iframe');
        f.src = 'https://evil.example/';
        document.body.append(f);
        setTimeout(() => resolve('none'), 5000);
      }).finally(() => document.querySelector('body > iframe')?.remove()),
    );
    expect(blocked).toBe('frame-src');

    // The slash menu's Embed: a lookalike host is refused with the reason and the providers; an allowed link goes in.
    await page.goto(shortUrl);
    await visible(editorOf(page));
    await visible(page.locator('figure.kb-embed[data-embed="figma"] iframe'));
    // In the text (the middle of the editor is a frame, which would take the keys).
    await page.getByText('The end.').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/emb', { delay: 15 });
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    await page.getByRole('option', { name: /^Embed/ }).click();
    const field = await visible(page.getByRole('textbox', { name: 'Link to embed' }));
    // A lookalike host is no embed: the box offers it as a link card instead (never a frame).
    await field.fill(`https://youtube.com.evil.com/watch?v=${YT}`);
    await field.press('Enter');
    await visible(page.getByText('This site cannot be embedded. Add it as a link card, with its title and icon?'));
    expect(await page.locator('figure.kb-embed iframe[src*="evil"]').count()).toBe(0);
    // What neither an embed nor a card takes is refused, naming the providers.
    await field.fill('javascript:alert(1)');
    await field.press('Enter');
    await visible(page.getByText(/must be https, not javascript:; embeds may show YouTube, Vimeo, Loom, Figma/));
    await web.shot(page, 'embeds-refused');
    await field.fill(VIMEO);
    await field.press('Enter');
    await visible(page.locator('figure.kb-embed[data-embed="vimeo"] iframe'));
    expect(await page.locator('figure.kb-embed[data-embed="vimeo"] iframe').getAttribute('src')).toBe('https://player.vimeo.com/video/76979871');
    await expect.poll(markdownOf, { timeout: 10_000 }).toContain(`::embed[${VIMEO}]`);
    expect(await markdownOf()).toBe(`${SHORT}\n::embed[${VIMEO}]\n`);

    await web.shot(page, 'embeds-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'embeds-dark');
  });

  it('embeds an allowed link pasted alone on an empty line; pasted in a sentence, or a link of another site, it stays a link', async () => {
    const target = await createPage(web, { token: owner.token, workspaceId: owner.workspaceId, spaceId: shortSpaceId }, 'Pasted links', {
      markdown: 'Links:',
    });
    const page = owner.page;
    await standInPlayers(page);
    await page.goto(pageAddress(owner.hostname, 'handbook', target));
    const editor = await visible(editorOf(page));
    await editor.getByText('Links:').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await pasteText(page, ` ${VIMEO} `);
    await visible(page.locator('figure.kb-embed[data-embed="vimeo"] iframe'));
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Also see ');
    await pasteText(page, YOUTUBE);
    await visible(editor.getByRole('link', { name: YOUTUBE }));
    await page.keyboard.press('Enter');
    await pasteText(page, 'https://example.com/notes');
    await visible(editor.getByRole('link', { name: 'https://example.com/notes' }));
    expect(await page.locator('figure.kb-embed').count()).toBe(1);
    const stored = async () => (await readPage(web, owner.token, target.id)).markdown;
    await expect.poll(stored).toContain('<https://example.com/notes>');
    expect(await stored()).toBe(`Links:\n\n::embed[${VIMEO}]\n\nAlso see <${YOUTUBE}>\n\n<https://example.com/notes>\n`);
  });

  it('offers a link card for a link it cannot embed: the card shows the host, opens in a new tab, and the page keeps ::link[…]', async () => {
    const page = owner.page;
    await standInPlayers(page);
    const made = await web.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: owner.token,
      body: {
        workspaceId: owner.workspaceId,
        spaceId: (await web.t.request({ url: `/api/v1/pages/${shortId}`, token: owner.token })).body.data.spaceId,
        title: 'Reading list',
        markdown: 'Reading:\n',
      },
    });
    expect(made.status).toBe(201);
    const pageId = made.body.data.id;
    await page.goto(`/w/${owner.hostname}/s/handbook/p/${made.body.data.slug}-${pageId}`);
    await visible(editorOf(page));
    await page.getByText('Reading:').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/emb', { delay: 15 });
    await page.getByRole('option', { name: /^Embed/ }).click();
    const field = await visible(page.getByRole('textbox', { name: 'Link to embed' }));
    const GUIDE = 'https://example.com/guide';
    await field.fill(GUIDE);
    await field.press('Enter');
    // Not an error: the box offers the card.
    await visible(page.getByText('This site cannot be embedded. Add it as a link card, with its title and icon?'));
    await visible(page.getByRole('button', { name: 'Add link card' }));
    await field.press('Enter');
    const card = await visible(page.locator('.kb-link-card'));
    const link = card.locator('a.kb-link-card-body');
    expect(await link.getAttribute('href')).toBe(GUIDE);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // No site is reachable from here: the server's preview gives the host, which the card shows.
    await expect.poll(async () => card.getAttribute('data-state'), { timeout: 10_000 }).not.toBe('loading');
    expect(await card.locator('.kb-link-card-title').textContent()).toBe('example.com');
    expect(await card.locator('.kb-link-card-host').textContent()).toBe(GUIDE);
    const markdown = async () =>
      (await web.t.request({ url: `/api/v1/pages/${pageId}`, token: owner.token, query: { format: 'markdown' } })).body.data.markdown as string;
    await expect.poll(markdown, { timeout: 10_000 }).toContain(`::link[${GUIDE}]`);
    await web.shot(page, 'link-card');
  });

  it('fits a phone: the frame keeps its shape at 375 px', async () => {
    const phone = await web.newPage({ width: 375, height: 800 });
    await standInPlayers(phone);
    const session = await phone.request.post('/api/v1/auth/session', { data: { email: owner.who.email, password: owner.who.password } });
    expect(session.ok()).toBe(true);
    await phone.goto(shortUrl);
    const frame = await visible(phone.locator('figure.kb-embed[data-embed="youtube"] iframe'));
    const box = (await frame.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(375);
    expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.05);
    await web.shot(phone, 'embeds-375');
  });

  it('shows the placeholder (its provider and link) while the frame waits (to look at: frames never come here)', async () => {
    const page = await web.newPage();
    // No block ever comes "near the screen": the placeholders stay.
    await page.addInitScript(() => {
      (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
        observe() {}
        disconnect() {}
      };
    });
    const session = await page.request.post('/api/v1/auth/session', { data: { email: owner.who.email, password: owner.who.password } });
    expect(session.ok()).toBe(true);
    await page.goto(shortUrl);
    const placeholder = await visible(page.locator('figure.kb-embed[data-embed="youtube"] .kb-embed-placeholder'));
    expect(await placeholder.innerText()).toBe('YouTube\nOpen in YouTube ↗');
    expect(await page.locator('figure.kb-embed iframe').count()).toBe(0);
    await web.shot(page, 'embeds-placeholder');
  });
});
