import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/** The whole service with DATABASE_PREPARED_STATEMENTS=false (behind PgBouncer in transaction mode before 1.21). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DATABASE_PREPARED_STATEMENTS: false });
});
afterAll(() => t.close());

const preparedStatements = () => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(t.database.db).then((r) => r.rows[0].n);

describe('prepared statements off', () => {
  it('serves writes and reads (a transaction, a compiled-once query, a key lookup) without preparing any statement', async () => {
    expect(t.config.DATABASE_PREPARED_STATEMENTS).toBe(false);
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const key = await createApiKey(t, editor);
    const space = await createSpace(t, admin, workspace.id, { name: 'Plain' });
    const page = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: key,
      body: { workspaceId: workspace.id, spaceId: space.id, title: 'Unprepared', markdown: 'Hello **there**' },
    });
    expect(page.status).toBe(201);
    const updated = await t.request({ method: 'PUT', url: `/api/v1/pages/${page.body.data.id}`, token: key, body: { title: 'Still unprepared' } });
    expect(updated.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const read = await t.request({ url: `/api/v1/pages/${page.body.data.id}`, token: key, query: { workspaceId: workspace.id } });
      expect(read.status).toBe(200);
      expect(read.body.data.title).toBe('Still unprepared');
      expect((await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: editor.token })).body.data.memberCount).toBe(3);
    }
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}/members/${editor.id}`, token: admin.token });
    expect(removed.status).toBe(200);
    expect((await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: admin.token })).body.data.memberCount).toBe(2);
    // On PGlite every query shares one session; on a server this checks one of the pool's connections. None prepared anything.
    expect(await preparedStatements()).toBe(0);
  });
});
