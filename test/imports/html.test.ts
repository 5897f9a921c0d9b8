import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import {
  type ImportSuite,
  type ImportView,
  importIntoNewSpace,
  importSuite,
  makeZip,
  PNG,
  readAttachments,
  readPage,
  type TreeNode,
  titles,
  zipFolder,
} from './helpers.js';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/html');

const suite = importSuite();
let t: TestApp;
let ws: ImportSuite['ws'];

beforeAll(async () => {
  ({ t, ws } = suite);
});

const importInto = (spaceName: string, file: { bytes: Buffer; filename: string }, source?: string) => importIntoNewSpace(suite, spaceName, file, source);

describe('imports: a zip of HTML pages', () => {
  let space: { id: string; slug: string };
  let done: ImportView;
  let tree: TreeNode[];

  beforeAll(async () => {
    ({ space, done, tree } = await importInto('Saved site', { bytes: await zipFolder(FIXTURE), filename: 'site.zip' }, 'html'));
  });

  it('makes folders parents (index.html the folder’s page), titles from <title>, else <h1>, else the file name, in natural order', () => {
    expect(done.detectedSource).toBe('html');
    expect(titles(tree)).toEqual(['The Guide', ['Setting up', '10-deploy'], 'Handbook & Home']);
    expect(done.result).toMatchObject({ pages: 4, attachments: 1 });
  });

  it('takes the page’s <main> when it has one, and does not repeat the title as a first heading', async () => {
    const home = await readPage(t, ws.editor, tree[1].id);
    expect(home.markdown).not.toContain('Saved from the intranet');
    expect(home.markdown).not.toContain('# Handbook');
    expect(home.markdown.startsWith('Read the ')).toBe(true);
    const setup = await readPage(t, ws.editor, tree[0].children[0].id);
    expect(setup.markdown.startsWith('Install it.')).toBe(true);
    // A heading that is not the title stays.
    const guide = await readPage(t, ws.editor, tree[0].id);
    expect(guide.markdown).toContain('# Guide overview');
    expect(guide.markdown).not.toContain('alert');
  });

  it('points links at the new pages (a folder link at its index.html) and images at attachments', async () => {
    const base = `/w/${ws.workspace.hostname}/s/${space.slug}/p/`;
    const [guide, home] = tree;
    const [setup, deploy] = guide.children;
    const homePage = await readPage(t, ws.editor, home.id);
    expect(homePage.markdown).toContain(`[guide](${base}the-guide-${guide.id})`);
    expect(homePage.markdown).toContain(`[deploying](${base}10-deploy-${deploy.id}#steps)`);
    const setupPage = await readPage(t, ws.editor, setup.id);
    expect(setupPage.markdown).toContain(`[handbook](${base}handbook-home-${home.id})`);
    const [image] = await readAttachments(t, ws.editor, ws.workspace.id, setup.id);
    expect(image).toMatchObject({ filename: 'screen shot.png', contentType: 'image/png' });
    expect(image.bytes.equals(PNG)).toBe(true);
    expect(setupPage.markdown).toContain(`![the screen](/api/v1/attachments/${image.id}/download)`);
  });

  it('warns about what it cannot carry and links that lead nowhere in the upload', () => {
    expect(done.warnings).toEqual([
      { path: 'guide/2-setup.html', message: '<video> is not supported; dropped' },
      { path: 'guide/10-deploy.html', message: 'the link to missing.html points at nothing in the upload; kept as written' },
    ]);
  });

  it('is what auto picks for HTML pages', async () => {
    const auto = await importInto('Saved site (auto)', { bytes: await zipFolder(FIXTURE), filename: 'site.zip' });
    expect(auto.done.detectedSource).toBe('html');
    expect(titles(auto.tree)).toEqual(titles(tree));
  });
});

describe('imports: one HTML file', () => {
  it('imports a single .html as one page titled by its first <h1> when it has no <title>', async () => {
    const html = '<!doctype html><html><body><h1>Release notes &#8211; 2026</h1><p>Fixed <strong>everything</strong>.</p></body></html>';
    const { done, tree } = await importInto('One file', { bytes: Buffer.from(html), filename: 'notes.html' });
    expect(done.detectedSource).toBe('html');
    expect(titles(tree)).toEqual(['Release notes – 2026']);
    const page = await readPage(t, ws.editor, tree[0].id);
    expect(page.markdown.trim()).toBe('Fixed **everything**.');
  });

  it('titles a page without <title> or <h1> by its file name', async () => {
    const { tree } = await importInto('Untitled file', { bytes: Buffer.from('<p>just text</p>'), filename: 'meeting-2026.html' }, 'html');
    expect(titles(tree)).toEqual(['meeting-2026']);
  });

  it('keeps numeric alt texts and titles as text (alt="250" is not the number 250, which no page may hold)', async () => {
    // Obsidian writes an image's width as its alt text (`![250](…)`), so a kb HTML export of an imported vault holds it.
    const html = '<p><img src="https://example.com/a.png" alt="250" title="2024"></p><p><a href="https://example.com" title="1.5" rel="3">link</a></p>';
    const { done, tree } = await importInto('Numbers', { bytes: Buffer.from(html), filename: 'numbers.html' }, 'html');
    expect(done.status).toBe('succeeded');
    const page = await readPage(t, ws.editor, tree[0].id);
    const blocks = page.content.content as { type: string; attrs?: unknown; content?: { marks?: unknown[] }[] }[];
    expect(blocks.find((b) => b.type === 'image')).toMatchObject({ attrs: { alt: '250', title: '2024' } });
    const link = blocks.find((b) => b.content?.[0]?.marks)?.content?.[0].marks?.[0];
    expect(link).toMatchObject({ type: 'link', attrs: { title: '1.5', rel: '3' } });
  });
});

describe('imports: images inside a line of text (icons)', () => {
  const inlineOf = (content: { content?: unknown[] }) => JSON.stringify(content).match(/"type":"(inlineImage|image)"/g) ?? [];

  it('keeps an <img> in a sentence in its sentence (HTML), and an image on its own line a block', async () => {
    const html = '<title>Saving</title><p>Press <img src="icon.png" alt="save"> to save.</p><p><img src="icon.png" alt="big"></p>';
    const { tree } = await importInto('Icons (HTML)', { bytes: await makeZip({ 'saving.html': html, 'icon.png': PNG }), filename: 'site.zip' }, 'html');
    const page = await readPage(t, ws.editor, tree[0].id);
    const [icon] = await readAttachments(t, ws.editor, ws.workspace.id, tree[0].id);
    expect(page.markdown).toBe(`Press ![save](/api/v1/attachments/${icon.id}/download) to save.\n\n![big](/api/v1/attachments/${icon.id}/download)\n`);
    expect(page.content.content[0].type).toBe('paragraph');
    expect(inlineOf(page.content)).toEqual(['"type":"inlineImage"', '"type":"image"']);
  });

  it('keeps an image in a sentence in its sentence (Markdown), its file an attachment', async () => {
    const md = 'Select **Settings** ![cog](cog.png) → General.\n';
    const { tree } = await importInto('Icons (Markdown)', { bytes: await makeZip({ 'Settings.md': md, 'cog.png': PNG }), filename: 'notes.zip' }, 'markdown');
    const page = await readPage(t, ws.editor, tree[0].id);
    const [cog] = await readAttachments(t, ws.editor, ws.workspace.id, tree[0].id);
    expect(page.markdown).toBe(`Select **Settings** ![cog](/api/v1/attachments/${cog.id}/download) → General.\n`);
    expect(page.content.content).toHaveLength(1);
    expect(inlineOf(page.content)).toEqual(['"type":"inlineImage"']);
  });
});
