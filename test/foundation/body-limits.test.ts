import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../helpers/app.js';
import { createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

let t: TestApp;
let ann: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await createUser(t, 'Ann');
});
afterAll(() => t.close());

function expectError(res: Response, status: number, code: string, details: object = {}) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.objectContaining(details) } });
  expect(res.headers['x-request-id']).toBeTruthy();
}

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const json = { 'content-type': 'application/json' };

/** Sends `slow` and, while it runs, a cheap request: how long each took, in ms. */
async function alongside(slow: () => Promise<Response>) {
  const started = performance.now();
  const slowDone = slow().then((res) => ({ res, ms: performance.now() - started }));
  const cheapDone = t.request({ url: '/api/health' }).then((res) => ({ res, ms: performance.now() - started }));
  return { slow: await slowDone, cheap: await cheapDone };
}

describe('JSON nesting depth', () => {
  it('refuses 12,000 nested arrays sent to login with 422 at once, without delaying another request', async () => {
    // 24 KB: this body blocked every request for 3 s when the NUL check copied the path at each level.
    const body = `{"email":"a@example.com","password":${nestedArrays(12_000)}}`;
    const { slow, cheap } = await alongside(() => t.request({ method: 'POST', url: '/api/v1/auth/login', headers: json, body }));
    expectError(slow.res, 422, 'VALIDATION_ERROR', { field: 'body', reason: 'too_deep', maxDepth: 64 });
    expect(cheap.res.status).toBe(200);
    expect(slow.ms).toBeLessThan(1000);
    expect(cheap.ms).toBeLessThan(1000);
  });

  it('refuses 20,000 nested arrays (40 KB, minutes before) on a route that takes content, as fast', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const body = `{"workspaceId":"${workspace.id}","title":"x","content":${nestedArrays(20_000)}}`;
    const { slow, cheap } = await alongside(() => t.request({ method: 'POST', url: '/api/v1/pages', token: editor.token, headers: json, body }));
    expectError(slow.res, 422, 'VALIDATION_ERROR', { reason: 'too_deep', maxDepth: 200 });
    expect(cheap.res.status).toBe(200);
    expect(slow.ms).toBeLessThan(1000);
    expect(cheap.ms).toBeLessThan(1000);
  });

  it('counts only structure: brackets inside strings (escaped quotes too) are text', async () => {
    const name = `${'['.repeat(90)}\\"${'{'.repeat(90)}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      headers: json,
      body: `{"name":"${name}","hostname":"brackets"}`,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe(name.replace('\\"', '"'));
  });

  it('takes 64 levels on record routes and refuses 65 there, while content routes take up to 200', async () => {
    const nest = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`);
    // The body object itself is level 1.
    const ok = await t.request({ method: 'PUT', url: `/api/v1/users/${ann.id}`, token: ann.token, body: { name: 'Ann', extra: nest(63) } });
    expect(ok.status).toBe(200);
    const deep = await t.request({ method: 'PUT', url: `/api/v1/users/${ann.id}`, token: ann.token, body: { name: 'Ann', extra: nest(64) } });
    expectError(deep, 422, 'VALIDATION_ERROR', { reason: 'too_deep', maxDepth: 64 });

    const { workspace, admin } = await workspaceWithRoles(t);
    const report = (context: unknown) =>
      t.request({
        method: 'POST',
        url: '/api/bug-reports/auto',
        token: admin.token,
        body: { source: 'auto:client', errorMessage: 'deep', workspaceId: workspace.id, context },
      });
    expect((await report({ tree: nest(150) })).status).toBe(201);
    // Bug-report answers add `success` and `status` beside the error.
    const deep200 = await report({ tree: nest(200) });
    expect(deep200.status).toBe(422);
    expect(deep200.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      details: expect.objectContaining({ reason: 'too_deep', maxDepth: 200 }),
    });
  });

  it('keeps normal page content working: a list nested 25 deep', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Deep lists' });
    let list: object = { type: 'paragraph', content: [{ type: 'text', text: 'leaf' }] };
    for (let i = 0; i < 25; i++) list = { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph' }, list] }] };
    const content = { type: 'doc', content: [list] };
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: workspace.id, spaceId: space.id, title: 'Lists', content },
    });
    expect(res.status).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: editor.token, query: { workspaceId: workspace.id } });
    expect(JSON.stringify(read.body.data.content)).toContain('leaf');
  });

  it('still names the field holding a NUL character, deep in a body', async () => {
    const res = await t.request({ method: 'PUT', url: `/api/v1/users/${ann.id}`, token: ann.token, body: { name: 'Ann', extra: { a: [{ b: 'x\u0000y' }] } } });
    expectError(res, 422, 'VALIDATION_ERROR', { field: 'extra.a.0.b' });
  });
});

describe('small bodies on routes that take no content', () => {
  it('refuses a body over SMALL_BODY_LIMIT_BYTES on auth, workspace, space and group routes with 413, and stores nothing', async () => {
    const big = 'x'.repeat(70 * 1024);
    const signup = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      body: { email: 'big@example.com', password: 'correct-horse', name: 'Big', pad: big },
    });
    expectError(signup, 413, 'VALIDATION_ERROR', { field: 'body', reason: 'too_large' });
    const rows = await t.database.db.selectFrom('users').select('id').where('email', '=', 'big@example.com').execute();
    expect(rows).toEqual([]);
    const ws = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'Big', hostname: 'big-body', description: big } });
    expectError(ws, 413, 'VALIDATION_ERROR', { reason: 'too_large' });
    const alias = await t.request({ method: 'POST', url: '/api/workspaces', token: ann.token, body: { name: 'Big', hostname: 'big-body', description: big } });
    expectError(alias, 413, 'VALIDATION_ERROR', { reason: 'too_large' });
    const { workspace, admin } = await workspaceWithRoles(t);
    const space = await t.request({
      method: 'POST',
      url: '/api/v1/spaces',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'S', description: big },
    });
    expectError(space, 413, 'VALIDATION_ERROR', { reason: 'too_large' });
    const group = await t.request({
      method: 'POST',
      url: '/api/v1/groups',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'G', description: big },
    });
    expectError(group, 413, 'VALIDATION_ERROR', { reason: 'too_large' });
  });

  it('leaves content routes their own limit: a 100 KB comment-sized page is accepted', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Big pages' });
    const text = 'word '.repeat(20_000);
    const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] };
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: workspace.id, spaceId: space.id, title: 'Big', content },
    });
    expect(res.status).toBe(201);
  });

  it('is a setting', async () => {
    const roomy = await createTestApp({ SMALL_BODY_LIMIT_BYTES: 256 * 1024 });
    try {
      const user = await createUser(roomy, 'Roomy');
      const res = await roomy.request({
        method: 'POST',
        url: '/api/v1/workspaces',
        token: user.token,
        body: { name: 'Roomy', hostname: 'roomy', pad: 'x'.repeat(70 * 1024) },
      });
      expect(res.status).toBe(201);
    } finally {
      await roomy.close();
    }
  });
});

describe('multipart uploads', () => {
  it('answers a multipart body without a boundary 400 INVALID_PARAMETER, and a cut-short one too, never 500', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const upload = (contentType: string, body: string) =>
      t.request({ method: 'POST', url: '/api/v1/attachments', token: editor.token, headers: { 'content-type': contentType }, body });
    for (const url of [
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${'b'.repeat(300)}`,
    ]) {
      expectError(await upload(url, '--x\r\n'), 400, 'INVALID_PARAMETER', { field: 'content-type', reason: 'missing_boundary' });
    }
    const cut = [
      '--b',
      'Content-Disposition: form-data; name="workspaceId"',
      '',
      workspace.id,
      '--b',
      'Content-Disposition: form-data; name="pageId"',
      '',
      'p',
    ].join('\r\n');
    expectError(await upload('multipart/form-data; boundary=b', cut), 400, 'INVALID_PARAMETER', { reason: 'malformed_multipart' });
  });
});
