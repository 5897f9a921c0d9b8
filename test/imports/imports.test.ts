import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createSpace } from '../spaces/helpers.js';
import { type ImportSuite, importFile, importSuite, makeZip, PNG, readAttachments, readPage, readTree, titles, waitForImport } from './helpers.js';

const suite = importSuite();
let t: TestApp;
let ws: ImportSuite['ws'];

beforeAll(async () => {
  ({ t, ws } = suite);
});

describe('imports: a Markdown folder', () => {
  it('makes folders parents, index.md and README.md folder pages, links page links and images attachments', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Imported' });
    const zip = await makeZip({
      'Guide/index.md': '---\ntitle: The Guide\n---\n# Welcome\n\nSee [setup](Setup.md) and [deploy](<Deploy/Linux hosts.md#ssh>).\n',
      'Guide/Setup.md': 'Install it.\n\n![diagram](img/diagram.png)\n',
      'Guide/Deploy/README.md': 'Deploying.',
      'Guide/Deploy/Linux hosts.md': '## ssh\n\nBack to [the guide](../index.md).',
      'Guide/img/diagram.png': PNG,
      '10 Later.md': 'later',
      '2 Sooner.md': 'sooner',
    });
    const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id }, { bytes: zip, filename: 'docs.zip' });
    expect(done.detectedSource).toBe('markdown');
    expect(done.result).toMatchObject({ pages: 6, attachments: 1 });
    const tree = await readTree(t, ws.editor, ws.workspace.id, space.id);
    expect(titles(tree)).toEqual(['2 Sooner', '10 Later', 'The Guide', ['Deploy', ['Linux hosts'], 'Setup']]);
    expect(done.result?.rootPageIds).toEqual(tree.map((n) => n.id));

    const guide = tree[2];
    const [deploy, setup] = guide.children;
    const guidePage = await readPage(t, ws.editor, guide.id);
    expect(guidePage.markdown).toContain(`[setup](/w/${ws.workspace.hostname}/s/${space.slug}/p/setup-${setup.id})`);
    expect(guidePage.markdown).toContain(`-${deploy.children[0].id}#ssh)`);
    const setupPage = await readPage(t, ws.editor, setup.id);
    const [image] = await readAttachments(t, ws.editor, ws.workspace.id, setup.id);
    expect(image).toMatchObject({ filename: 'diagram.png', contentType: 'image/png' });
    expect(image.bytes.equals(PNG)).toBe(true);
    expect(setupPage.markdown).toContain(`![diagram](/api/v1/attachments/${image.id}/download)`);
    expect(done.warnings).toEqual([]);
  });
});

describe('imports: what cannot be carried over', () => {
  it('warns, naming the file, for a link to nothing, a disallowed scheme, and files no page names', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Warned' });
    const zip = await makeZip({
      'a.md': 'See [gone](missing.md) and [site](https://example.com).',
      'b.html': '<p>Hello <a href="javascript:alert(1)">click</a></p><iframe src="https://example.com"></iframe>',
      'notes.md': 'x',
      'orphan.pdf': Buffer.from('%PDF-1.4 nothing'),
      '.obsidian/app.json': '{}',
    });
    const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id, source: 'markdown' }, { bytes: zip, filename: 'w.zip' });
    expect(done.warnings).toEqual([
      { path: 'a.md', message: 'the link to missing.md points at nothing in the upload; kept as written' },
      { path: '', message: '2 file(s) are neither pages nor named by any page, and were not imported: b.html, orphan.pdf' },
    ]);
    const page = await readPage(t, ws.editor, done.result!.rootPageIds[0]);
    expect(page.markdown).toBe('See [gone](missing.md) and [site](https://example.com).\n');
  });
});

describe('imports: one file', () => {
  it('imports a single .md under a parent page, its title from front matter, after the pages already there', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Single' });
    const at = { workspaceId: ws.workspace.id, spaceId: space.id };
    const parent = await t.request({ method: 'POST', url: '/api/v1/pages', token: ws.editor.token, body: { ...at, title: 'Inbox', markdown: 'x' } });
    const existing = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { ...at, title: 'Older', markdown: 'x', parentId: parent.body.data.id },
    });
    expect(existing.status).toBe(201);
    const md = Buffer.from('---\ntitle: "Meeting: 24 Nov"\ntags: [a, b]\n---\n# Agenda\n\n- [x] review\n- [ ] ship\n');
    const done = await importFile(t, ws.editor, { ...at, parentPageId: parent.body.data.id }, { bytes: md, filename: 'meeting.md' });
    expect(done.result).toMatchObject({ pages: 1, attachments: 0 });
    const tree = await readTree(t, ws.editor, ws.workspace.id, space.id);
    expect(titles(tree)).toEqual(['Inbox', ['Older', 'Meeting: 24 Nov']]);
    const page = await readPage(t, ws.editor, done.result!.rootPageIds[0]);
    expect(page.markdown).toBe('# Agenda\n\n- [x] review\n- [ ] ship\n');
  });

  it('takes a leading # heading as the title, not repeated in the content (a title from front matter wins)', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Headings' });
    const zip = await makeZip({
      'handbook.md': '# The *Handbook*\n\nWelcome.\n',
      'other.md': '---\ntitle: Other\n---\n# Not the title\n\nBody.\n',
      'bare.md': '# Only a heading\n',
    });
    const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id }, { bytes: zip, filename: 'h.zip' });
    const tree = await readTree(t, ws.editor, ws.workspace.id, space.id);
    // In the order of their file names: bare, handbook, other.
    expect(titles(tree)).toEqual(['Only a heading', 'The Handbook', 'Other']);
    const [bare, handbook, other] = await Promise.all(tree.map((n) => readPage(t, ws.editor, n.id)));
    expect(handbook.markdown).toBe('Welcome.\n');
    expect(other.markdown).toBe('# Not the title\n\nBody.\n');
    expect(bare.markdown).toBe('# Only a heading\n');
    expect(done.warnings).toEqual([]);
  });

  it('takes the file as Base64 in JSON too (scripts and MCP)', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Json' });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/imports',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId: space.id, filename: 'Plain notes.md', data: Buffer.from('Hello *there*').toString('base64') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'queued', source: 'auto', filename: 'Plain notes.md', size: 13, result: null, error: null });
    const done = await waitForImport(t, ws.editor, res.body.data.id);
    expect(done.status).toBe('succeeded');
    expect(titles(await readTree(t, ws.editor, ws.workspace.id, space.id))).toEqual(['Plain notes']);
  });
});
