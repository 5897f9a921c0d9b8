import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as compactCurrentVersions } from '../../src/db/migrations/0017_history_current_content.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('history keeps one copy of the current version (migration 0017)', () => {
  it('empties the newest entries that repeat their page, keeps every other, and each version still reads back whole', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const ws = workspace.id;
    const space = (await createSpace(t, admin, ws)).id;
    const page = await newPage(t, editor, ws, space, { title: 'Runbook', content: doc('first') });
    const put = (body: object) => t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: editor.token, body });
    expect((await put({ content: doc('second') })).status).toBe(200);
    expect((await put({ content: doc('third') })).status).toBe(200);
    // A page whose newest entry differs from the page (a write that bypassed history): that entry must keep its content.
    const other = await newPage(t, editor, ws, space, { title: 'Other', content: doc('entry text') });
    await t.database.db
      .updateTable('pages')
      .set({ content: JSON.stringify(doc('drifted')) as never })
      .where('id', '=', other.id)
      .execute();

    // The data as it was before 0017: every entry carried its own copy, the newest one too.
    const current = await t.database.db.selectFrom('pages').select(['id', 'content']).where('id', 'in', [page.id, other.id]).execute();
    for (const p of current) {
      const newest = await t.database.db
        .selectFrom('pageHistory')
        .select('id')
        .where('pageId', '=', p.id)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const content = p.id === page.id ? p.content : doc('entry text');
      await t.database.db
        .updateTable('pageHistory')
        .set({ content: JSON.stringify(content) as never })
        .where('id', '=', newest.id)
        .execute();
    }
    const before = await t.request({ url: `/api/v1/pages/${page.id}/history`, token: editor.token });
    expect(before.body.data.map((e: { version: number }) => e.version)).toEqual([3, 2, 1]);

    await compactCurrentVersions(t.database.db as unknown as Kysely<unknown>);

    const stored = await t.database.db
      .selectFrom('pageHistory')
      .select(['pageId', 'version', 'content'])
      .where('pageId', 'in', [page.id, other.id])
      .orderBy('pageId')
      .orderBy('version')
      .execute();
    const nulls = (id: string) => stored.filter((s) => s.pageId === id).map((s) => s.content === null);
    expect(nulls(page.id)).toEqual([false, false, true]);
    expect(nulls(other.id)).toEqual([false]);

    // Reads are unchanged: each version, the current one too, reads back with its own text.
    for (const [i, text] of ['third', 'second', 'first'].entries()) {
      const entry = await t.request({ url: `/api/v1/pages/${page.id}/history/${before.body.data[i].id}`, token: editor.token, query: { format: 'markdown' } });
      expect(entry.status).toBe(200);
      expect(JSON.stringify(entry.body.data)).toContain(text);
    }
    const otherHistory = await t.request({ url: `/api/v1/pages/${other.id}/history`, token: editor.token });
    const otherEntry = await t.request({
      url: `/api/v1/pages/${other.id}/history/${otherHistory.body.data[0].id}`,
      token: editor.token,
      query: { format: 'markdown' },
    });
    expect(JSON.stringify(otherEntry.body.data)).toContain('entry text');
  });
});
