import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDisposition } from 'content-disposition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createPage, createSpace } from '../spaces/helpers.js';
import { multipart } from '../helpers/multipart.js';

let t: TestApp;
let small: TestApp;
const SMALL_MAX = 1000;
beforeAll(async () => {
  t = await createTestApp();
  small = await createTestApp({ MAX_ATTACHMENT_BYTES: SMALL_MAX, BODY_LIMIT_BYTES: 4096 });
});
afterAll(async () => {
  await t.close();
  await small.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Files under DATA_DIR/blobs (temporary files included). */
function blobFiles(app: TestApp): string[] {
  const root = path.join(app.config.DATA_DIR, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

async function setup(app = t) {
  const roles = await workspaceWithRoles(app);
  const space = await createSpace(app, roles.admin, roles.workspace.id, { name: 'Files' });
  const page = await createPage(app, roles.editor, roles.workspace.id, space.id, 'With files');
  return { ...roles, space, page };
}

function upload(app: TestApp, user: TestUser, body: { pageId: string; workspaceId: string; filename?: string; contentType?: string; data?: string }) {
  return app.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: user.token,
    body: { filename: 'f.bin', contentType: 'application/octet-stream', ...body },
  });
}

async function uploadMultipart(app: TestApp, user: TestUser, parts: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(parts);
  const raw = await app.app.inject({
    method: 'POST',
    url: '/api/v1/attachments',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
    payload,
  });
  return { status: raw.statusCode, body: raw.json() };
}

function download(app: TestApp, user: TestUser, id: string) {
  return app.app.inject({ method: 'GET', url: `/api/v1/attachments/${id}/download`, headers: { authorization: `Bearer ${user.token}` } });
}

describe('attachments: upload and download', () => {
  it('stores a text file from Base64 and gives back the same bytes with safe headers', async () => {
    const { workspace, editor, viewer, page } = await setup();
    const bytes = Buffer.from('hello, wörld\nline two\n', 'utf8');
    const res = await upload(t, editor, {
      pageId: page.id,
      workspaceId: workspace.id,
      filename: 'notes.txt',
      contentType: 'Text/Plain; charset=utf-8',
      data: bytes.toString('base64'),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      pageId: page.id,
      workspaceId: workspace.id,
      filename: 'notes.txt',
      contentType: 'text/plain; charset=utf-8',
      size: bytes.length,
      sha256: sha256(bytes),
      createdAt: expect.any(String),
      createdBy: editor.id,
    });
    const id = res.body.data.id;
    expect((await t.request({ url: `/api/v1/attachments/${id}`, token: viewer.token })).body.data).toEqual(res.body.data);
    const list = await t.request({ url: '/api/v1/attachments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([res.body.data]);

    const dl = await download(t, viewer, id);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(bytes)).toBe(true);
    // Not an image: a download of plain bytes (the record keeps the uploaded type).
    expect(dl.headers['content-type']).toBe('application/octet-stream');
    expect(dl.headers['content-length']).toBe(String(bytes.length));
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(dl.headers['content-disposition']).toBe('attachment; filename=notes.txt');
    expect(dl.headers.etag).toBe(`"${sha256(bytes)}"`);
    // The unversioned alias serves the same bytes.
    const alias = await t.app.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: { authorization: `Bearer ${viewer.token}` } });
    expect(alias.rawPayload.equals(bytes)).toBe(true);
  });

  it('round-trips random binary bytes, including an empty file', async () => {
    const { workspace, editor, page } = await setup();
    for (const bytes of [randomBytes(200_003), Buffer.alloc(0)]) {
      const res = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, filename: 'blob.bin', data: bytes.toString('base64') });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ size: bytes.length, sha256: sha256(bytes), contentType: 'application/octet-stream' });
      const dl = await download(t, editor, res.body.data.id);
      expect(dl.statusCode).toBe(200);
      expect(dl.rawPayload.length).toBe(bytes.length);
      expect(dl.rawPayload.equals(bytes)).toBe(true);
      expect(dl.headers['content-length']).toBe(String(bytes.length));
      expect(dl.headers['content-disposition']).toBe('attachment; filename=blob.bin');
    }
  });

  it('accepts multipart/form-data uploads, streamed, with the file part after the fields', async () => {
    const { workspace, editor, viewer, page } = await setup();
    const bytes = randomBytes(700_001);
    const res = await uploadMultipart(t, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes, filename: 'photo.png', type: 'image/png' }],
    ]);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      pageId: page.id,
      filename: 'photo.png',
      contentType: 'image/png',
      size: bytes.length,
      sha256: sha256(bytes),
      createdBy: editor.id,
    });
    const dl = await download(t, viewer, res.body.data.id);
    expect(dl.rawPayload.equals(bytes)).toBe(true);
    expect(dl.headers['content-disposition']).toBe('inline; filename=photo.png');

    // Fields may override the file part's name and type.
    const named = await uploadMultipart(t, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['filename', 'report.csv'],
      ['contentType', 'text/csv'],
      ['file', { bytes: Buffer.from('a,b\n1,2\n'), filename: 'upload', type: 'application/octet-stream' }],
    ]);
    expect(named.body.data).toMatchObject({ filename: 'report.csv', contentType: 'text/csv', size: 8 });

    // The fields must come first; the file part must be there; and the caller must be an editor.
    const late = await uploadMultipart(t, editor, [
      ['file', { bytes, filename: 'x.bin', type: 'application/octet-stream' }],
      ['pageId', page.id],
      ['workspaceId', workspace.id],
    ]);
    expect(late.status).toBe(400);
    expect(late.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'pageId' } });
    const noFile = await uploadMultipart(t, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
    ]);
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.details.field).toBe('file');
    const byViewer = await uploadMultipart(t, viewer, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes, filename: 'x.bin', type: 'application/octet-stream' }],
    ]);
    expect(byViewer.status).toBe(403);
    const badType = await uploadMultipart(t, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['contentType', 'not a type'],
      ['file', { bytes, filename: 'x.bin', type: 'application/octet-stream' }],
    ]);
    expect(badType.status).toBe(422);
    expect(badType.body.error.details.field).toBe('contentType');
    const list = await t.request({ url: '/api/v1/attachments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token });
    expect(list.body.data).toHaveLength(2);
    expect(blobFiles(t).every((f) => !f.endsWith('.tmp'))).toBe(true);
  });
});

describe('attachments: validation and limits', () => {
  it('refuses anything but strict Base64 with 422', async () => {
    const { workspace, editor, page } = await setup();
    for (const data of ['abc', 'ab=c', 'aGVs bG8=', 'aGVsbG8=\n', '-_-_', 'aGl=', 'data:text/plain;base64,aGk=', '====', 'é===']) {
      const res = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data });
      expect(res.status, data).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data', reason: 'invalid_base64' } });
    }
    expect((await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' })).status).toBe(201);
    const missing = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: editor.token,
      body: { pageId: page.id, workspaceId: workspace.id, filename: 'x' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('MISSING_REQUIRED');
    for (const [field, value] of [
      ['contentType', 'text'],
      ['contentType', 'text/plain\r\nx-evil: 1'],
      ['filename', ''],
      ['filename', 'x'.repeat(256)],
      ['filename', '../'],
    ] as const) {
      const res = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=', [field]: value });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.error.details.field).toBe(field);
    }
    expect((await upload(t, editor, { pageId: 'ghost', workspaceId: workspace.id, data: 'aGk=' })).status).toBe(404);
  });

  it('caps the size at MAX_ATTACHMENT_BYTES (422) and the whole body at BODY_LIMIT_BYTES (413), storing nothing', async () => {
    const { workspace, editor, page } = await setup(small);
    const atLimit = randomBytes(SMALL_MAX);
    const ok = await upload(small, editor, { pageId: page.id, workspaceId: workspace.id, data: atLimit.toString('base64') });
    expect(ok.status).toBe(201);
    expect(ok.body.data.size).toBe(SMALL_MAX);
    const before = blobFiles(small);
    expect(before).toHaveLength(1);

    const over = await upload(small, editor, { pageId: page.id, workspaceId: workspace.id, data: randomBytes(SMALL_MAX + 1).toString('base64') });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data', reason: 'too_large' } });

    const overMultipart = await uploadMultipart(small, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes: randomBytes(SMALL_MAX + 1), filename: 'big.bin', type: 'application/octet-stream' }],
    ]);
    expect(overMultipart.status).toBe(422);
    expect(overMultipart.body.error.details).toMatchObject({ field: 'data', reason: 'too_large' });
    const atLimitMultipart = await uploadMultipart(small, editor, [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes: atLimit, filename: 'ok.bin', type: 'application/octet-stream' }],
    ]);
    expect(atLimitMultipart.status).toBe(201);

    const huge = await upload(small, editor, { pageId: page.id, workspaceId: workspace.id, data: randomBytes(5000).toString('base64') });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('VALIDATION_ERROR');
    // Refused uploads leave no file behind (not even a temporary one).
    expect(blobFiles(small)).toHaveLength(2);
  });
});

describe('attachments: download headers', () => {
  it('shows safe raster images inline; serves everything else as a download of bytes no browser runs', async () => {
    const { workspace, editor, page } = await setup();
    const images = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'IMAGE/PNG; foo=bar'];
    const downloads = [
      'text/html',
      'text/html; charset=utf-8',
      'image/svg+xml',
      'application/xml',
      'text/xml',
      'text/xsl',
      'application/xhtml+xml',
      'text/javascript',
      'application/javascript',
      'application/x-javascript',
      'text/javascript; charset=utf-8',
      'application/ecmascript',
      'text/css',
      'application/wasm',
      'application/json',
      'application/manifest+json',
      'application/pdf',
      'text/plain',
      'multipart/x-mixed-replace; boundary=x',
      'image/x-icon',
      'application/octet-stream',
    ];
    for (const contentType of [...images, ...downloads]) {
      const bytes = Buffer.from('<script>alert(1)</script>');
      const res = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, filename: 'x.html', contentType, data: bytes.toString('base64') });
      expect(res.status).toBe(201);
      const dl = await download(t, editor, res.body.data.id);
      const image = images.includes(contentType);
      expect(dl.headers['content-disposition'], contentType).toBe(`${image ? 'inline' : 'attachment'}; filename=x.html`);
      expect(dl.headers['content-type'], contentType).toBe(image ? contentType.split(';')[0].toLowerCase() : 'application/octet-stream');
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      // The record keeps the type it was uploaded with (a client may still tell a PDF from a script).
      expect(res.body.data.contentType).toBe(contentType.toLowerCase());
    }
  });

  it('encodes file names safely: quotes, non-ASCII, path separators, control characters', async () => {
    const { workspace, editor, page } = await setup();
    const cases: [string, string][] = [
      ['a "quoted" name.txt', 'a "quoted" name.txt'],
      ['résumé 日本語.pdf', 'résumé 日本語.pdf'],
      ['../../etc/passwd', 'passwd'],
      ['C:\\Users\\me\\secret.doc', 'secret.doc'],
      ['evil\r\nSet-Cookie: x=1.txt', 'evilSet-Cookie: x=1.txt'],
      ['exe\u202Etxt.exe', 'exetxt.exe'],
      ['back\\slash;semi,comma%20.txt', 'slash;semi,comma%20.txt'],
    ];
    for (const [given, kept] of cases) {
      const res = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, filename: given, data: 'aGk=' });
      expect(res.status, given).toBe(201);
      expect(res.body.data.filename).toBe(kept);
      const dl = await download(t, editor, res.body.data.id);
      const header = dl.headers['content-disposition'] as string;
      expect(header).not.toMatch(/[\r\n]/);
      // Every byte of the header is ASCII; the real name survives the round trip through a standard parser.
      expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
      expect(parseDisposition(header).parameters.filename).toBe(kept);
    }
    const nonAscii = await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, filename: 'résumé.pdf', data: 'aGk=' });
    const header = (await download(t, editor, nonAscii.body.data.id)).headers['content-disposition'];
    expect(header).toBe(`attachment; filename="r?sum?.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  });
});

describe('attachments: access', () => {
  it('lets viewers read, editors upload, and the uploader or an admin delete', async () => {
    const { workspace, admin, editor, viewer, outsider, page } = await setup();
    const other = await createWorkspace(t, admin);
    const body = { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' };
    expect((await upload(t, viewer, body)).status).toBe(403);
    expect((await upload(t, outsider, body)).status).toBe(403);
    expect((await upload(t, admin, { ...body, workspaceId: other.id })).status).toBe(404);
    const mine = (await upload(t, editor, body)).body.data;
    const admins = (await upload(t, admin, body)).body.data;

    expect((await t.request({ url: `/api/v1/attachments/${mine.id}`, token: outsider.token })).status).toBe(403);
    expect((await download(t, outsider, mine.id)).statusCode).toBe(403);
    expect((await t.request({ url: '/api/v1/attachments', query: { pageId: page.id, workspaceId: workspace.id }, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/attachments/${mine.id}`, query: { workspaceId: other.id }, token: admin.token })).status).toBe(404);
    expect((await t.request({ url: '/api/v1/attachments/nope', token: admin.token })).status).toBe(404);
    expect((await download(t, admin, 'nope')).statusCode).toBe(404);

    const blobsBefore = blobFiles(t).length;
    // A viewer cannot delete; an editor cannot delete someone else's file; the uploader and the admin can.
    expect((await t.request({ method: 'DELETE', url: `/api/v1/attachments/${mine.id}`, token: viewer.token })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/attachments/${admins.id}`, token: editor.token })).status).toBe(403);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/attachments/${mine.id}`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: mine.id, deleted: true } });
    expect((await t.request({ method: 'DELETE', url: `/api/v1/attachments/${admins.id}`, token: admin.token })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/attachments/${mine.id}`, token: editor.token })).status).toBe(404);
    expect((await download(t, editor, mine.id)).statusCode).toBe(404);
    expect(blobFiles(t).length).toBe(blobsBefore - 2);
  });

  it('hides attachments of a private space from non-members and a space viewer cannot upload', async () => {
    const { workspace, admin, editor, viewer } = await setup();
    const priv = await createSpace(t, admin, workspace.id, { name: 'Private files', visibility: 'private' });
    const page = await createPage(t, admin, workspace.id, priv.id, 'Secret page');
    const file = (await upload(t, admin, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' })).body.data;
    for (const user of [editor, viewer]) {
      expect((await t.request({ url: '/api/v1/attachments', query: { pageId: page.id, workspaceId: workspace.id }, token: user.token })).status).toBe(404);
      expect((await t.request({ url: `/api/v1/attachments/${file.id}`, token: user.token })).status).toBe(404);
      expect((await download(t, user, file.id)).statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/attachments/${file.id}`, token: user.token })).status).toBe(404);
    }
    await addSpaceMembers(t, admin, workspace.id, priv.id, { userIds: [editor.id], role: 'viewer' });
    expect((await download(t, editor, file.id)).statusCode).toBe(200);
    expect((await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' })).status).toBe(403);
  });

  it('answers 410 for attachments of a trashed page', async () => {
    const { workspace, editor, page } = await setup();
    const file = (await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' })).body.data;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${page.id}`, query: { workspaceId: workspace.id }, token: editor.token })).status).toBe(
      200,
    );
    expect((await t.request({ url: '/api/v1/attachments', query: { pageId: page.id, workspaceId: workspace.id }, token: editor.token })).status).toBe(410);
    expect((await t.request({ url: `/api/v1/attachments/${file.id}`, token: editor.token })).status).toBe(410);
    expect((await download(t, editor, file.id)).statusCode).toBe(410);
    expect((await upload(t, editor, { pageId: page.id, workspaceId: workspace.id, data: 'aGk=' })).status).toBe(410);
  });
});

describe('space delete', () => {
  it('removes the space’s pages, comments, attachments and their blobs; other spaces keep theirs', async () => {
    const { workspace, admin, editor, space, page } = await setup();
    const child = await createPage(t, editor, workspace.id, space.id, 'Child', page.id);
    const keep = await createSpace(t, admin, workspace.id, { name: 'Keep' });
    const keptPage = await createPage(t, editor, workspace.id, keep.id, 'Kept');
    const files = [];
    for (const p of [page, child, keptPage])
      files.push((await upload(t, editor, { pageId: p.id, workspaceId: workspace.id, data: randomBytes(100).toString('base64') })).body.data);
    const c = await t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: editor.token,
      body: { pageId: child.id, workspaceId: workspace.id, text: 'bye' },
    });
    expect(c.status).toBe(201);
    const spaceRead = await t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: admin.token });
    expect(spaceRead.body.data.pageCount).toBe(2);
    const blobsBefore = blobFiles(t);

    const res = await t.request({ method: 'DELETE', url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: admin.token });
    expect(res.status).toBe(200);
    for (const f of files.slice(0, 2)) expect((await t.request({ url: `/api/v1/attachments/${f.id}`, token: admin.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/comments/${c.body.data.id}`, token: admin.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${page.id}`, query: { workspaceId: workspace.id }, token: admin.token })).status).toBe(404);
    expect((await download(t, admin, files[2].id)).statusCode).toBe(200);
    expect(blobFiles(t).length).toBe(blobsBefore.length - 2);
    const rows = await t.database.db.selectFrom('attachments').select('id').where('workspaceId', '=', workspace.id).execute();
    expect(rows.map((r) => r.id)).toEqual([files[2].id]);
  });
});
