import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let handbook: string;
let engineering: string;
let leadership: string;
const ids: Record<string, string> = {};

async function space(name: string, visibility: 'public' | 'private') {
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body: { workspaceId: ws, name, visibility } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function page(key: string, spaceId: string, title: string, markdown: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: admin.token, body: { workspaceId: ws, spaceId, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ids[key] = res.body.data.id;
}

async function task(key: string, spaceId: string | null, title: string, description: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/tasks', token: admin.token, body: { workspaceId: ws, spaceId, title, description } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ids[key] = res.body.data.id;
}

function search(token: string, query: string, extra: Record<string, string | string[]> = {}) {
  return t.request({ url: '/api/v1/search', token, query: { workspaceId: ws, query, ...extra } });
}

function suggest(token: string, query: string, extra: Record<string, string> = {}) {
  return t.request({ url: '/api/v1/search/suggest', token, query: { workspaceId: ws, query, ...extra } });
}

const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const keyOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0];
const keysOf = (res: { body: { data: { id: string }[] } }) => idsOf(res).map(keyOf);

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, editor, viewer, outsider } = await workspaceWithRoles(t));
  ws = (await t.request({ url: '/api/v1/workspaces', token: admin.token })).body.data[0].id;
  handbook = await space('Handbook', 'public');
  engineering = await space('Engineering', 'public');
  leadership = await space('Leadership', 'private');
  const added = await t.request({
    method: 'POST',
    url: `/api/v1/spaces/${leadership}/members`,
    token: admin.token,
    body: { workspaceId: ws, userIds: [editor.id], role: 'viewer' },
  });
  expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);

  await page(
    'vacation',
    handbook,
    'Vacation policy',
    'Full-time employees get 25 days of paid time off each year. Request leave in the HR portal two weeks ahead.',
  );
  await page('lunch', handbook, 'Team lunch notes', 'We talked about vacation plans, the new coffee machine and the summer party.');
  await page('k8s-title', engineering, 'Kubernetes upgrade', 'Steps to move the cluster to the new version during the maintenance window.');
  await page('k8s-body', engineering, 'Weekly platform notes', 'The team discussed kubernetes briefly, then the budget for next year.');
  for (let i = 0; i < 6; i++) await page(`deploy-${i}`, engineering, `Deployment notes ${i}`, `Deployment went fine on day ${i}. Nothing else happened.`);
  await page('zeppelin', engineering, 'Hangar inventory', 'The zeppelin hangar keeps spare parts for the airship.');
  await page('kb', handbook, 'Knowledge base guidelines', 'How to write articles people can find: one question per article.');
  await page('train', engineering, 'Release train schedule', 'The release train leaves every second Tuesday.');
  await page('train-apart', engineering, 'Coaching plan', 'We train the release managers in the spring.');
  await page('db-backup', engineering, 'Database backup', 'Nightly backup of PostgreSQL with point-in-time recovery.');
  await page('laptop-backup', handbook, 'Laptop backup', 'Turn on the backup of your laptop to the cloud drive.');
  const text = 'Use <script>alert(1)</script> & <b>bold</b> and a stray </mark> near the xylophone room.';
  const xss = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: admin.token,
    body: {
      workspaceId: ws,
      spaceId: handbook,
      title: 'Markup sample',
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
    },
  });
  expect(xss.status, JSON.stringify(xss.body)).toBe(201);
  ids.xss = xss.body.data.id;
  await page('secret', leadership, 'Falcon acquisition plan', 'Confidential: the falcon deal closes in March.');
  await page('trashed', handbook, 'Obsolete gizmo procedure', 'The gizmo procedure is no longer used.');
  await task('vacation-task', null, 'Fix vacation balance display', 'The HR portal shows the wrong vacation balance for part-time staff.');
  await task('secret-task', leadership, 'Prepare falcon board deck', 'Slides about the falcon deal for the board.');
  const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${ids.trashed}`, token: admin.token, query: { workspaceId: ws } });
  expect(del.status).toBe(200);
});
afterAll(() => t.close());

describe('GET /v1/search ranking', () => {
  it('finds the page that answers a question', async () => {
    const res = await search(viewer.token, 'how many vacation days do I get per year?');
    expect(res.status).toBe(200);
    expect(keysOf(res)[0]).toBe('vacation');
    expect(keysOf(res)).toEqual(expect.arrayContaining(['lunch', 'vacation-task']));
    const first = res.body.data[0];
    expect(first).toMatchObject({ type: 'page', id: ids.vacation, title: 'Vacation policy', spaceId: handbook });
    expect(typeof first.score).toBe('number');
    expect(new Date(first.updatedAt).toISOString()).toBe(first.updatedAt);
  });

  it('ranks a title match above a body match', async () => {
    const res = await search(viewer.token, 'kubernetes');
    expect(keysOf(res).slice(0, 2)).toEqual(['k8s-title', 'k8s-body']);
  });

  it('weighs a rare word above a common one', async () => {
    const res = await search(viewer.token, 'deployment zeppelin');
    expect(keysOf(res)[0]).toBe('zeppelin');
    expect(res.body.data).toHaveLength(7);
  });

  it('ranks documents matching more of the query first', async () => {
    const res = await search(viewer.token, 'release train schedule');
    expect(keysOf(res)[0]).toBe('train');
  });

  it('matches the unfinished last word as a prefix', async () => {
    const res = await search(viewer.token, 'knowl');
    expect(keysOf(res)).toEqual(['kb']);
    const longer = await search(viewer.token, 'kubernet');
    expect(keysOf(longer)[0]).toBe('k8s-title');
  });

  it('requires a quoted phrase', async () => {
    const loose = await search(viewer.token, 'release train');
    expect(keysOf(loose)).toEqual(expect.arrayContaining(['train', 'train-apart']));
    const phrase = await search(viewer.token, '"release train"');
    expect(keysOf(phrase)).toEqual(['train']);
  });

  it('reads quotes in prose as quotation: a question quoting a title no page has still finds pages', async () => {
    const question = 'when does the release train leave, and who wrote the "quarterly rollout handbook" for it?';
    const res = await search(viewer.token, question);
    expect(res.status).toBe(200);
    expect(keysOf(res)[0]).toBe('train');
    // The same quote in a short query is a required phrase: nothing has it.
    const short = await search(viewer.token, 'release train "quarterly rollout handbook"');
    expect(short.status).toBe(200);
    expect(keysOf(short)).toEqual([]);
    // An excluded phrase still excludes in prose.
    const excluding = await search(viewer.token, 'when does the release train leave and who coaches the managers -"release train"');
    expect(keysOf(excluding)).not.toContain('train');
  });

  it('leaves out -excluded words and phrases', async () => {
    const both = await search(viewer.token, 'backup');
    expect(keysOf(both)).toEqual(expect.arrayContaining(['db-backup', 'laptop-backup']));
    const res = await search(viewer.token, 'backup -laptop');
    expect(keysOf(res)).toEqual(['db-backup']);
    const phrase = await search(viewer.token, 'backup -"cloud drive"');
    expect(keysOf(phrase)).toEqual(['db-backup']);
  });

  it('merges pages and tasks by score, and filters by types, spaceId and limit', async () => {
    const all = await search(viewer.token, 'vacation balance');
    expect(new Set(all.body.data.map((r: { type: string }) => r.type))).toEqual(new Set(['page', 'task']));
    expect(keysOf(all)[0]).toBe('vacation-task');
    const scores = all.body.data.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    for (const types of [['page'], 'page']) {
      const pages = await search(viewer.token, 'vacation balance', { types });
      expect(pages.body.data.every((r: { type: string }) => r.type === 'page')).toBe(true);
      expect(pages.body.data.length).toBeGreaterThan(0);
    }
    const tasks = await search(viewer.token, 'vacation', { types: 'task' });
    expect(keysOf(tasks)).toEqual(['vacation-task']);
    for (const types of [['page', 'task'], 'page,task']) {
      const both = await search(viewer.token, 'vacation', { types });
      expect(both.body.data).toHaveLength(3);
    }
    const inSpace = await search(viewer.token, 'notes', { spaceId: engineering });
    expect(inSpace.body.data.length).toBeGreaterThan(0);
    expect(inSpace.body.data.every((r: { spaceId: string }) => r.spaceId === engineering)).toBe(true);
    const limited = await search(viewer.token, 'deployment', { limit: '2' });
    expect(limited.body.data).toHaveLength(2);
    const dflt = await search(viewer.token, 'deployment');
    expect(dflt.body.data).toHaveLength(6);
  });

  it('returns an escaped snippet with only its own marks', async () => {
    const res = await search(viewer.token, 'xylophone');
    expect(res.status).toBe(200);
    const snippet: string = res.body.data[0].snippet;
    expect(snippet).toContain('<mark>xylophone</mark>');
    expect(snippet).toContain('alert(1)&lt;/script&gt;');
    expect(snippet).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(snippet).toContain('&amp;');
    expect(snippet).toContain('&lt;/mark&gt;');
    expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(snippet.match(/<mark>/g)).toHaveLength(1);
  });

  it("shows each page's icon, and none for tasks and pages without one, in results and title suggestions", async () => {
    const put = await t.request({ method: 'PUT', url: `/api/v1/pages/${ids['train-apart']}`, token: admin.token, body: { icon: '🚆' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const res = await search(viewer.token, 'release train');
    const iconOf = (key: string) => res.body.data.find((r: { id: string }) => r.id === ids[key])?.icon;
    expect(iconOf('train-apart')).toBe('🚆');
    expect(iconOf('train')).toBeNull();
    const tasks = await search(viewer.token, 'vacation', { types: 'task' });
    expect(tasks.body.data[0].icon).toBeNull();
    const sug = await suggest(viewer.token, 'coach');
    expect(sug.body.data).toContainEqual({ text: 'Coaching plan', type: 'page', id: ids['train-apart'], icon: '🚆' });
  });

  it('sees a page change at once (the index is written with the page)', async () => {
    const put = await t.request({ method: 'PUT', url: `/api/v1/pages/${ids.zeppelin}`, token: admin.token, body: { title: 'Airship hangar quartermaster' } });
    expect(put.status).toBe(200);
    const res = await search(viewer.token, 'quartermaster');
    expect(keysOf(res)).toEqual(['zeppelin']);
  });
});

describe('GET /v1/search access', () => {
  it('answers 403 to a non-member and 401 without credentials', async () => {
    const res = await search(outsider.token, 'vacation');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const anon = await t.request({ url: '/api/v1/search', query: { workspaceId: ws, query: 'vacation' } });
    expect(anon.status).toBe(401);
    const sug = await suggest(outsider.token, 'vac');
    expect(sug.status).toBe(403);
  });

  it('never shows a private space to a non-member of the space', async () => {
    const hidden = await search(viewer.token, 'falcon');
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual([]);
    const bySpace = await search(viewer.token, 'falcon', { spaceId: leadership });
    expect(bySpace.status).toBe(404);
    const member = await search(editor.token, 'falcon');
    expect(keysOf(member).sort()).toEqual(['secret', 'secret-task']);
    const wsAdmin = await search(admin.token, 'falcon', { spaceId: leadership });
    expect(wsAdmin.body.data).toHaveLength(2);
  });

  it('never suggests from a private space to a non-member', async () => {
    const hidden = await suggest(viewer.token, 'falc');
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual([]);
    const member = await suggest(editor.token, 'falc');
    expect(member.body.data).toEqual(
      expect.arrayContaining([
        { text: 'falcon', type: 'keyword' },
        { text: 'Falcon acquisition plan', type: 'page', id: ids.secret, icon: null },
      ]),
    );
  });

  it('never shows a trashed page', async () => {
    expect((await search(admin.token, 'gizmo')).body.data).toEqual([]);
    expect((await suggest(admin.token, 'gizm')).body.data).toEqual([]);
  });
});

describe('GET /v1/search/suggest', () => {
  it('completes words of the vocabulary and page titles', async () => {
    const res = await suggest(viewer.token, 'vaca');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({ text: 'vacation', type: 'keyword' });
    expect(res.body.data).toContainEqual({ text: 'Vacation policy', type: 'page', id: ids.vacation, icon: null });
    const multi = await suggest(viewer.token, 'release tr');
    expect(multi.body.data).toContainEqual({ text: 'Release train schedule', type: 'page', id: ids.train, icon: null });
    const limited = await suggest(viewer.token, 'de', { limit: '1' });
    expect(limited.body.data).toHaveLength(1);
  });

  it('answers an empty list for a single character', async () => {
    const res = await suggest(viewer.token, 'v');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('hostile and bad input', () => {
  const hostile = [
    '%',
    '_',
    "'",
    '"',
    '""',
    '"unbalanced phrase',
    '\\',
    '\\\\x',
    '()',
    '(vacation',
    'a & b | !c',
    '!!!',
    ':*',
    'vacation:*',
    "vacation' | 'x",
    '&|!:*<->',
    '<-> <2>',
    '-',
    '--vacation',
    '-vacation',
    'the and of',
    '🎉 vacation 🎉',
    '🎉',
    'ünïcödé vacation',
    'x'.repeat(2000),
    `${'vacation '.repeat(250)}`.slice(0, 2000),
    'SELECT * FROM pages; --',
    '\u200b',
  ];

  it('answers 200 with a list for any query text', async () => {
    for (const q of hostile) {
      const res = await search(viewer.token, q);
      expect(res.status, `search ${JSON.stringify(q.slice(0, 40))}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      if (q.length <= 200) {
        const sug = await suggest(viewer.token, q);
        expect(sug.status, `suggest ${JSON.stringify(q)}`).toBe(200);
      }
    }
    expect(keysOf(await search(viewer.token, '-vacation'))).toEqual([]);
    expect(keysOf(await search(viewer.token, '(vacation'))).toEqual(expect.arrayContaining(['vacation', 'lunch', 'vacation-task']));
    expect(keysOf(await search(viewer.token, 'the and of'))).toEqual([]);
  });

  it('rejects empty, missing and malformed parameters with 400', async () => {
    const cases: [Record<string, string | string[]>, string, string][] = [
      [{ workspaceId: ws }, 'MISSING_REQUIRED', 'query'],
      [{ query: 'x' }, 'MISSING_REQUIRED', 'workspaceId'],
      [{ workspaceId: ws, query: '   ' }, 'INVALID_PARAMETER', 'query'],
      [{ workspaceId: ws, query: 'x'.repeat(2001) }, 'INVALID_PARAMETER', 'query'],
      [{ workspaceId: ws, query: 'x', types: 'page,note' }, 'INVALID_PARAMETER', 'types'],
      [{ workspaceId: ws, query: 'x', limit: '0' }, 'INVALID_PARAMETER', 'limit'],
      [{ workspaceId: ws, query: 'x', limit: '101' }, 'INVALID_PARAMETER', 'limit'],
      [{ workspaceId: ws, query: 'x', limit: 'abc' }, 'INVALID_PARAMETER', 'limit'],
    ];
    for (const [query, code, field] of cases) {
      const res = await t.request({ url: '/api/v1/search', token: viewer.token, query });
      expect(res.status, JSON.stringify(query).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatchObject({ code, details: { field } });
    }
    const sug = await t.request({ url: '/api/v1/search/suggest', token: viewer.token, query: { workspaceId: ws, query: '' } });
    expect(sug.status).toBe(400);
    const unknown = await t.request({ url: '/api/v1/search', token: viewer.token, query: { workspaceId: 'nope', query: 'x' } });
    expect(unknown.status).toBe(404);
  });
});
