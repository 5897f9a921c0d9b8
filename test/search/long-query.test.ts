import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * A long query (a pasted paragraph, a long question) ranks with its 32 rarest words, wherever they come in it: the
 * decisive word of a question is often near its end.
 */
const FILLER = (
  'apple banana cherry delta eagle falcon garden harbor island jungle kettle lemon meadow nectar orange pepper quartz ' +
  'river saddle timber umbrella valley walnut yellow zenith anchor bridge candle dragon ember forest glacier hammer ' +
  'igloo jasmine kernel lantern marble nickel oyster'
).split(' ');

let t: TestApp;
let ws: string;
let editor: TestUser;
const ids: Record<string, string> = {};

async function page(title: string, markdown: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: editor.token, body: { workspaceId: ws, spaceId: ids.space, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  editor = w.editor;
  ids.space = (await createSpace(t, w.admin, ws, { name: 'Words' })).id;
  for (let i = 0; i < 3; i++) ids[`filler${i}`] = await page(`Word list ${i}`, FILLER.join(' '));
  ids.target = await page('Airship notes', 'The zeppelin needs a new envelope.');
}, 120_000);
afterAll(() => t.close());

describe('a query longer than 32 words', () => {
  it('keeps its rarest words, even the last one', async () => {
    const query = `${FILLER.join(' ')} zeppelin`;
    expect(query.split(' ').length).toBeGreaterThan(40);
    const res = await t.request({ url: '/api/v1/search', token: editor.token, query: { workspaceId: ws, query, limit: '10' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const found = res.body.data.map((r: { id: string }) => r.id);
    expect(found).toContain(ids.target);
    expect(new Set(found)).toEqual(new Set([ids.target, ids.filler0, ids.filler1, ids.filler2]));
    expect(res.body.data.find((r: { id: string }) => r.id === ids.target).snippet).toContain('<mark>zeppelin</mark>');
  });

  it('leaves out words no document has before words some have', async () => {
    const unknown = Array.from({ length: 40 }, (_, i) => `qqxz${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const res = await t.request({
      url: '/api/v1/search',
      token: editor.token,
      query: { workspaceId: ws, query: `${unknown.join(' ')} zeppelin`, limit: '10' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([ids.target]);
  });
});
