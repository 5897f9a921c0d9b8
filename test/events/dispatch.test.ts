import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import { dispatchEvents } from '../../src/areas/events/events.dispatch.js';
import { EVENTS_DISPATCH_JOB, eventJobs } from '../../src/areas/events/events.jobs.js';
import { type NewEvent, recordEvents } from '../../src/areas/events/events.record.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { Worker } from '../../src/jobs/worker.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
});
afterAll(() => t.close());

const pending = async () => (await t.database.db.selectFrom('domainEvents').select('id').where('dispatchedAt', 'is', null).execute()).map((r) => r.id);

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the dispatcher', () => {
  it('dispatches 300 events once each with two dispatchers claiming concurrently', async () => {
    await dispatchEvents(t.database.db); // what setting up the workspace recorded (members joined)
    expect(await pending()).toEqual([]);
    const events: NewEvent[] = Array.from({ length: 300 }, (_, i) => ({
      workspaceId: ws.workspace.id,
      type: 'task.updated',
      subject: { type: 'task', id: `task-${i}` },
      data: { title: `Task ${i}` },
    }));
    for (let i = 0; i < 300; i += 50)
      await recordEvents(t.database.db, { actor: { userId: ws.editor.id, via: 'jwt', apiKeyId: null } }, events.slice(i, i + 50));
    const ids = await pending();
    expect(ids).toHaveLength(300);

    const claims: string[][] = [[], []];
    const [a, b] = await Promise.all(
      [0, 1].map((n) => dispatchEvents(t.database.db, { batchSize: 20, maxBatches: 100, onClaimed: (got) => claims[n]!.push(...got) })),
    );
    expect(claims[0]!.length).toBeGreaterThan(0); // both loops took part
    expect(claims[1]!.length).toBeGreaterThan(0);
    const claimed = [...claims[0]!, ...claims[1]!];
    expect(claimed).toHaveLength(300); // no event claimed twice
    expect(new Set(claimed)).toEqual(new Set(ids));
    expect(a!.dispatched + b!.dispatched).toBe(300);
    expect(a!.failed + b!.failed).toBe(0);
    expect(await pending()).toEqual([]);

    const stamped = await t.database.db.selectFrom('domainEvents').select(['id', 'dispatchedAt']).where('id', 'in', ids).execute();
    expect(stamped.every((r) => r.dispatchedAt instanceof Date)).toBe(true);
    // A second round finds nothing to do: stamped events are never claimed again.
    expect(await dispatchEvents(t.database.db, { onClaimed: (got) => claimed.push(...got) })).toEqual({ dispatched: 0, failed: 0 });
    expect(claimed).toHaveLength(300);
  });

  it('is nudged by a change once it commits, and the job dispatches it', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id);
    await t.database.db.deleteFrom('jobs').where('kind', '=', EVENTS_DISPATCH_JOB).execute();
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId: space.id, title: 'Nudged', content: { type: 'doc', content: [{ type: 'paragraph' }] } },
    });
    expect(res.status).toBe(201);
    const nudges = await t.database.db.selectFrom('jobs').select(['status', 'dedupeKey']).where('kind', '=', EVENTS_DISPATCH_JOB).execute();
    expect(nudges).toEqual([{ status: 'queued', dedupeKey: 'events.dispatch:nudge' }]);
    expect(await pending()).toHaveLength(1);

    const worker = new Worker({
      db: t.database.db,
      env: { config: t.config, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(t.config) },
      handlers: new Map(Object.entries(eventJobs.handlers)),
      concurrency: 1,
      pollMs: 20,
    });
    worker.start();
    try {
      expect(await waitFor(pending, (p) => p.length === 0)).toEqual([]);
      const job = await waitFor(
        () => t.database.db.selectFrom('jobs').select(['status', 'result']).where('kind', '=', EVENTS_DISPATCH_JOB).executeTakeFirstOrThrow(),
        (j) => j.status === 'done',
      );
      expect(job.result).toEqual({ dispatched: 1, failed: 0 });
    } finally {
      await worker.stop();
    }
  });

  it('runs as a recurring job', () => {
    expect(eventJobs.recurring).toEqual([{ kind: EVENTS_DISPATCH_JOB, everyMs: expect.any(Number) }]);
  });
});
