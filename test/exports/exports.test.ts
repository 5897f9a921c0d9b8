import { randomBytes } from 'node:crypto';
import { parse as parseDisposition } from 'content-disposition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanedBlobs } from '../../src/areas/attachments/attachments.jobs.js';
import { EXPORT_JOB_KIND, expireExports } from '../../src/areas/exports/exports.jobs.js';
import { claimNext } from '../../src/jobs/queue.js';
import { createBlobStore } from '../../src/blobs/index.js';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createSpace } from '../spaces/helpers.js';
import { exportAndUnzip, exportWorker, startExport, unzip, waitForExport } from './helpers.js';

let t: TestApp;
let worker: Worker | undefined;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: { id: string; slug: string };
let privateSpace: { id: string };
/** Page ids by title. */
const ids: Record<string, string> = {};
const png = randomBytes(3000);
let attachmentId: string;

async function page(user: TestUser, title: string, markdown: string, parentId?: string, spaceId = space.id) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: user.token,
    body: { workspaceId: ws.workspace.id, spaceId, title, markdown, ...(parentId ? { parentId } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; slug: string };
}

async function setMarkdown(user: TestUser, pageId: string, markdown: string) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: user.token, body: { markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Handbook' });
  privateSpace = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Secret', visibility: 'private' });
  // A tree three levels deep under Guide, names that collide or need cleaning, and a page in the trash.
  const guide = await page(ws.editor, 'Guide', 'Start here.');
  ids.Guide = guide.id;
  ids.Setup = (await page(ws.editor, 'Setup', 'Setup text.', guide.id)).id;
  const install = await page(ws.editor, 'Install', 'Install text.', ids.Setup);
  ids.Install = install.id;
  ids.Linux = (await page(ws.editor, 'Linux', 'Linux text.', ids.Install)).id;
  ids.Old = (await page(ws.editor, 'Old', 'Trashed.', guide.id)).id;
  ids.Notes = (await page(ws.editor, 'Notes', 'First notes.')).id;
  ids.notes = (await page(ws.editor, 'notes', 'Second notes.')).id;
  ids.odd = (await page(ws.editor, '.hidden/a: b?', 'Odd title.')).id;
  ids.long = (await page(ws.editor, 'é'.repeat(100), 'Long title.')).id;
  const trashed = await t.request({ method: 'DELETE', url: `/api/v1/pages/${ids.Old}`, token: ws.editor.token });
  expect(trashed.status).toBe(200);
  const uploaded = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: ws.editor.token,
    body: { pageId: ids.Setup, workspaceId: ws.workspace.id, filename: 'diagram.png', contentType: 'image/png', data: png.toString('base64') },
  });
  expect(uploaded.status).toBe(201);
  attachmentId = uploaded.body.data.id;
  // Links of every kind the editor stores: a page mention, an app URL of a page, an attachment image, file and video.
  await setMarkdown(
    ws.editor,
    ids.Setup,
    [
      'See [@Linux](mention:page%3A' + ids.Linux + ') and [install](/w/' + ws.workspace.hostname + '/s/' + space.slug + '/p/install-' + ids.Install + ').',
      '',
      `![diagram](/api/v1/attachments/${attachmentId}/download)`,
      '',
      `Click ![icon](/api/v1/attachments/${attachmentId}/download) to zoom.`,
      '',
      `::file[diagram.png](/api/v1/attachments/${attachmentId}/download){size=${png.length} type="image/png"}`,
      '',
      `::video[Walkthrough](/api/v1/attachments/${attachmentId}/download)`,
      '',
      'Back to [@Guide](mention:page%3A' + ids.Guide + ').',
      '',
    ].join('\n'),
  );
  await page(ws.admin, 'Classified', 'Nobody else reads this.', undefined, privateSpace.id);
});

afterAll(async () => {
  await worker?.stop();
  await t.close();
});

describe('exports: requests and access', () => {
  it('answers 202 queued; 409 on download until the job has run; then succeeded with a zip', async () => {
    const started = await startExport(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, format: 'markdown' });
    expect(started).toMatchObject({ status: 'queued', progress: { done: 0, total: 0 } });
    const early = await t.request({ url: `/api/v1/exports/${started.id}/download`, token: ws.viewer.token });
    expect(early.status).toBe(409);
    expect(early.body.error.details).toMatchObject({ status: 'queued', reason: 'not_ready' });
    worker = exportWorker(t);
    const done = await waitForExport(t, ws.viewer, started.id);
    expect(done).toMatchObject({ status: 'succeeded', error: null, downloadUrl: `/api/v1/exports/${started.id}/download` });
    expect(done.progress.total).toBeGreaterThan(0);
    expect(done.progress.done).toBe(done.progress.total);
    const res = await t.request({ url: done.downloadUrl, token: ws.viewer.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(parseDisposition(String(res.headers['content-disposition']))).toMatchObject({ type: 'attachment', parameters: { filename: 'Handbook.zip' } });
    expect(Number(res.headers['content-length'])).toBe(done.size);
  });

  it('hides an export from everyone but its requester (404), and refuses what the requester cannot read', async () => {
    const started = await startExport(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id });
    for (const other of [ws.admin, ws.editor, ws.outsider]) {
      expect((await t.request({ url: `/api/v1/exports/${started.id}`, token: other.token })).status).toBe(404);
      expect((await t.request({ url: `/api/v1/exports/${started.id}/download`, token: other.token })).status).toBe(404);
    }
    const post = (user: TestUser, body: object) => t.request({ method: 'POST', url: '/api/v1/exports', token: user.token, body });
    expect((await post(ws.outsider, { workspaceId: ws.workspace.id, spaceId: space.id })).status).toBe(403);
    expect((await post(ws.viewer, { workspaceId: ws.workspace.id, spaceId: privateSpace.id })).status).toBe(404);
    expect((await post(ws.viewer, { workspaceId: ws.workspace.id, pageId: ids.Old })).status).toBe(410);
    expect((await post(ws.viewer, { workspaceId: ws.workspace.id, pageId: 'nope' })).status).toBe(404);
    const both = await post(ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, pageId: ids.Guide });
    expect(both.status).toBe(422);
    const neither = await post(ws.viewer, { workspaceId: ws.workspace.id });
    expect(neither.status).toBe(422);
    expect((await post(ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, format: 'pdf' })).status).toBe(422);
    expect((await t.request({ url: '/api/v1/exports/nope', token: ws.viewer.token })).status).toBe(404);
  });

  it('a private space: its member exports it; access is checked again at download', async () => {
    await addSpaceMembers(t, ws.admin, ws.workspace.id, privateSpace.id, { userIds: [ws.viewer.id], role: 'viewer' });
    const { export: done, files } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: privateSpace.id });
    expect([...files.keys()].sort()).toEqual(['Classified.md', 'kb-manifest.json']);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/v1/spaces/${privateSpace.id}/members/${ws.viewer.id}`,
      token: ws.admin.token,
      query: { workspaceId: ws.workspace.id },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await t.request({ url: `/api/v1/exports/${done.id}/download`, token: ws.viewer.token })).status).toBe(404);
  });
});

describe('exports: the zip', () => {
  it('markdown: tree as folders, safe unique names, front matter, relative links, attachment bytes, manifest order', async () => {
    const { files } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, format: 'markdown' });
    const paths = [...files.keys()].sort();
    const longName = `${'é'.repeat(58)}.md`;
    expect(paths).toEqual(
      [
        'Guide.md',
        'Guide/Setup.md',
        'Guide/Setup/Install.md',
        'Guide/Setup/Install/Linux.md',
        'Guide/_attachments/diagram.png',
        'Notes.md',
        'notes (2).md',
        'hidden a b.md',
        longName,
        'kb-manifest.json',
      ].sort(),
    );
    expect(Buffer.byteLength(longName)).toBeLessThanOrEqual(120);
    expect(files.get('Guide/_attachments/diagram.png')?.equals(png)).toBe(true);
    const setup = files.get('Guide/Setup.md')?.toString('utf8') ?? '';
    expect(setup).toMatch(/^---\ntitle: "Setup"\nid: "[^"]+"\ncreated: "\d{4}-[^"]+"\nupdated: "\d{4}-[^"]+"\nauthors: \["Editor"\]\n---\n/);
    expect(setup).toContain(`id: "${ids.Setup}"`);
    expect(setup).toContain('[@Linux](Setup/Install/Linux.md)');
    expect(setup).toContain('[install](Setup/Install.md)');
    expect(setup).toContain('![diagram](_attachments/diagram.png)');
    // An image inside a line of text stays in it, its address relative too.
    expect(setup).toContain('Click ![icon](_attachments/diagram.png) to zoom.');
    expect(setup).toContain(`::file[diagram.png](_attachments/diagram.png){size=${png.length} type="image/png"}`);
    expect(setup).toContain('::video[Walkthrough](_attachments/diagram.png)');
    expect(setup).toContain('[@Guide](../Guide.md)');
    expect(files.get('Guide/Setup/Install/Linux.md')?.toString()).toContain('Linux text.');
    expect([...files.keys()].some((p) => p.includes('Old'))).toBe(false);
    const manifest = JSON.parse(files.get('kb-manifest.json')?.toString() ?? '{}');
    expect(manifest).toMatchObject({ kind: 'kb-export', version: 1, format: 'markdown', source: { spaceId: space.id, pageId: null } });
    const order = manifest.pages.map((p: { title: string }) => p.title);
    expect(order).toEqual(['Guide', 'Setup', 'Install', 'Linux', 'Notes', 'notes', '.hidden/a: b?', 'é'.repeat(100)]);
    const setupEntry = manifest.pages.find((p: { id: string }) => p.id === ids.Setup);
    expect(setupEntry).toMatchObject({ parentId: ids.Guide, order: 0, path: 'Guide/Setup.md', authors: ['Editor'] });
    expect(setupEntry.attachments).toEqual([
      expect.objectContaining({ id: attachmentId, filename: 'diagram.png', path: 'Guide/_attachments/diagram.png', size: png.length }),
    ]);
    expect(manifest.pages.find((p: { title: string }) => p.title === 'notes')).toMatchObject({ parentId: null, order: 2, path: 'notes (2).md' });
  });

  it('html: standalone documents with relative links and the title and dates in the head', async () => {
    const { files } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, format: 'html' });
    expect(files.has('Guide/Setup.html')).toBe(true);
    expect(files.has('Guide/_attachments/diagram.png')).toBe(true);
    const setup = files.get('Guide/Setup.html')?.toString('utf8') ?? '';
    expect(setup).toMatch(/^<!doctype html>/);
    expect(setup).toContain('<title>Setup</title>');
    expect(setup).toContain(`<meta name="kb:id" content="${ids.Setup}">`);
    expect(setup).toContain('href="Setup/Install/Linux.html"');
    expect(setup).toContain('src="_attachments/diagram.png"');
    expect(setup).toMatch(/<p>Click <img src="_attachments\/diagram.png" alt="icon"[^>]*> to zoom.<\/p>/);
    expect(setup).toMatch(/<a href="_attachments\/diagram.png" class="file"[^>]*download="diagram.png"/);
    expect(setup).toMatch(/<video src="_attachments\/diagram.png"/);
    expect(setup).toContain('href="../Guide.html"');
    expect(files.get('hidden a b.html')?.toString()).toContain('<title>.hidden/a: b?</title>');
  });

  it('a subtree: the page and its descendants, links outside it left as they were; without children, the page alone', async () => {
    const { files } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, pageId: ids.Setup, includeAttachments: false });
    expect([...files.keys()].sort()).toEqual(['Setup.md', 'Setup/Install.md', 'Setup/Install/Linux.md', 'kb-manifest.json']);
    const setup = files.get('Setup.md')?.toString() ?? '';
    expect(setup).toContain('[@Linux](Setup/Install/Linux.md)');
    expect(setup).toContain(`[@Guide](mention:page%3A${ids.Guide})`);
    expect(setup).toContain(`/api/v1/attachments/${attachmentId}/download`);
    const alone = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, pageId: ids.Install, includeChildren: false });
    expect([...alone.files.keys()].sort()).toEqual(['Install.md', 'kb-manifest.json']);
    const manifest = JSON.parse(alone.files.get('kb-manifest.json')?.toString() ?? '{}');
    expect(manifest.pages).toEqual([expect.objectContaining({ id: ids.Install, parentId: null, path: 'Install.md' })]);
  });

  it('a page trashed after the request fails the export with the reason', async () => {
    const doomed = await page(ws.editor, 'Doomed', 'Soon gone.');
    await worker?.stop();
    worker = undefined;
    const started = await startExport(t, ws.editor, { workspaceId: ws.workspace.id, pageId: doomed.id });
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${doomed.id}`, token: ws.editor.token })).status).toBe(200);
    worker = exportWorker(t);
    const done = await waitForExport(t, ws.editor, started.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/deleted/);
    expect((await t.request({ url: `/api/v1/exports/${started.id}/download`, token: ws.editor.token })).status).toBe(409);
  });

  it('an export whose job’s lease expired on its last attempt reads failed, and is not built again', async () => {
    await worker?.stop();
    worker = undefined;
    const started = await startExport(t, ws.editor, { workspaceId: ws.workspace.id, pageId: ids.Notes });
    // Claimed by workers that died with it, each time (a process that crashes building it), until no attempt is left.
    for (let attempt = 1; ; attempt++) {
      const job = await claimNext(t.database.db, `crashed-${attempt}`, [EXPORT_JOB_KIND], 50);
      expect(job?.payload.exportId).toBe(started.id);
      await new Promise((r) => setTimeout(r, 80));
      if (job!.attempts === job!.maxAttempts) break;
    }
    worker = exportWorker(t);
    const done = await waitForExport(t, ws.editor, started.id, 10_000);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^export failed: lease expired after the last attempt \(\d of \d\): the worker running it stopped before it finished$/);
  });

  it('unzips cleanly with a standard reader', async () => {
    const { response } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, pageId: ids.Guide });
    const again = await unzip(response.raw.rawPayload);
    expect(again.size).toBeGreaterThan(1);
  });
});

describe('exports: MCP, the CPU pool, expiry', () => {
  it('export_create and export_get over MCP give the same records as REST', async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: ws.viewer.token, body: { name, arguments: args } });
    const created = await call('export_create', { workspaceId: ws.workspace.id, pageId: ids.Install, format: 'html' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.structuredContent).toMatchObject({ status: 'queued', format: 'html', pageId: ids.Install });
    const id = created.body.structuredContent.id;
    await waitForExport(t, ws.viewer, id);
    const got = await call('export_get', { exportId: id });
    expect(got.body.structuredContent).toMatchObject({ id, status: 'succeeded', downloadUrl: `/api/v1/exports/${id}/download` });
    const both = await call('export_create', { workspaceId: ws.workspace.id, pageId: ids.Install, spaceId: space.id });
    expect(both.status).toBe(422);
    const other = await t.request({
      method: 'POST',
      url: '/api/mcp-standard/call_tool',
      token: ws.editor.token,
      body: { name: 'export_get', arguments: { exportId: id } },
    });
    expect(other.status).toBe(404);
  });

  it('a batch of HTML pages is rendered on the CPU pool, in order, and the zip survives the blob sweep until it expires', async () => {
    const wide = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Wide' });
    const titles = Array.from({ length: 12 }, (_, i) => `Page ${String(i).padStart(2, '0')}`);
    for (const title of titles) await page(ws.editor, title, `Body of **${title}**.`, undefined, wide.id);
    const { export: done, files } = await exportAndUnzip(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: wide.id, format: 'html' });
    const manifest = JSON.parse(files.get('kb-manifest.json')?.toString() ?? '{}');
    expect(manifest.pages.map((p: { title: string }) => p.title)).toEqual(titles);
    expect(files.get('Page 07.html')?.toString()).toContain('<p>Body of <strong>Page 07</strong>.</p>');

    const blobs = createBlobStore(t.config);
    const later = new Date(Date.now() + 2 * 3600_000);
    await sweepOrphanedBlobs(t.database.db, blobs, later);
    expect((await t.request({ url: `/api/v1/exports/${done.id}/download`, token: ws.viewer.token })).status).toBe(200);

    const env = { blobs };
    expect(await expireExports({ db: t.database.db, env } as never, new Date(Date.now() + 6 * 24 * 3600_000))).toBe(0);
    const expired = await expireExports({ db: t.database.db, env } as never, new Date(Date.now() + 8 * 24 * 3600_000));
    expect(expired).toBeGreaterThan(0);
    expect((await t.request({ url: `/api/v1/exports/${done.id}`, token: ws.viewer.token })).status).toBe(404);
    await expect(blobs.get(`export_${done.id}`)).rejects.toThrow(/not found/);
  });
});
