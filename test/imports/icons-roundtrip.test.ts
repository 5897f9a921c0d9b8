import { beforeAll, describe, expect, it } from 'vitest';
import { exportAndUnzip } from '../exports/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { createSpace } from '../spaces/helpers.js';
import { findPage, type ImportSuite, importFile, importSuite, makeZip, PNG, readAttachments, readPage, readTree } from './helpers.js';

/** kb → zip → kb keeps what the issue found lost: page icons, and images inside a line of text. */

const suite = importSuite();
let t: TestApp;
let ws: ImportSuite['ws'];

beforeAll(async () => {
  ({ t, ws } = suite);
});

describe('imports: kb → zip → kb, icons and inline images', () => {
  it.each(['markdown', 'html'])('keeps page icons (in kb-manifest.json) and an icon inside a sentence through %s', async (format) => {
    const from = await createSpace(t, ws.admin, ws.workspace.id, { name: `Icons out ${format}` });
    const create = async (title: string, icon?: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/pages',
        token: ws.editor.token,
        body: { workspaceId: ws.workspace.id, spaceId: from.id, title, markdown: 'x', ...(icon ? { icon } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: string };
    };
    const goals = await create('Goals', '🎯');
    await create('Plain');
    const upload = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: ws.editor.token,
      body: { pageId: goals.id, workspaceId: ws.workspace.id, filename: 'cog.png', contentType: 'image/png', data: PNG.toString('base64') },
    });
    expect(upload.status).toBe(201);
    const markdown = `Select ![cog](/api/v1/attachments/${upload.body.data.id}/download) Settings.\n`;
    const put = await t.request({ method: 'PUT', url: `/api/v1/pages/${goals.id}`, token: ws.editor.token, body: { markdown } });
    expect(put.status).toBe(200);

    const { files } = await exportAndUnzip(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: from.id, format });
    const manifest = JSON.parse(files.get('kb-manifest.json')!.toString());
    expect(manifest.pages.map((p: { title: string; icon?: string }) => [p.title, p.icon])).toEqual([
      ['Goals', '🎯'],
      ['Plain', undefined],
    ]);

    const to = await createSpace(t, ws.admin, ws.workspace.id, { name: `Icons in ${format}` });
    const entries = Object.fromEntries(files);
    await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: to.id }, { bytes: await makeZip(entries), filename: 'export.zip' });
    const tree = await readTree(t, ws.editor, ws.workspace.id, to.id);
    const back = await readPage(t, ws.editor, findPage(tree, 'Goals').id);
    expect(back.icon).toBe('🎯');
    expect((await readPage(t, ws.editor, findPage(tree, 'Plain').id)).icon).toBeNull();
    const [cog] = await readAttachments(t, ws.editor, ws.workspace.id, back.id);
    expect(back.markdown).toBe(`Select ![cog](/api/v1/attachments/${cog.id}/download) Settings.\n`);
    expect(back.content.content).toHaveLength(1);
  });

  it('takes no icon from a manifest that names one the pages API would refuse', async () => {
    const manifest = {
      kind: 'kb-export',
      version: 1,
      exportedAt: '2026-01-01T00:00:00Z',
      format: 'markdown',
      source: { workspaceId: 'w', spaceId: 's', pageId: null, includeChildren: true },
      pages: [
        { id: 'a', title: 'Long', icon: 'x'.repeat(101), path: 'Long.md', parentId: null, order: 0, position: 'a0', createdAt: '', updatedAt: '', authors: [], attachments: [] },
        { id: 'b', title: 'Odd', icon: 42, path: 'Odd.md', parentId: null, order: 1, position: 'a1', createdAt: '', updatedAt: '', authors: [], attachments: [] },
      ],
      warnings: [],
    };
    const to = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Icons refused' });
    const zip = await makeZip({ 'kb-manifest.json': JSON.stringify(manifest), 'Long.md': 'long', 'Odd.md': 'odd' });
    await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: to.id }, { bytes: zip, filename: 'export.zip' });
    const tree = await readTree(t, ws.editor, ws.workspace.id, to.id);
    for (const title of ['Long', 'Odd']) expect((await readPage(t, ws.editor, findPage(tree, title).id)).icon).toBeNull();
  });
});
