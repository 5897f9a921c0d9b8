import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvents } from '../../src/areas/events/events.dispatch.js';
import { recordEvent } from '../../src/areas/events/events.record.js';
import { SWEEP_JOB_KIND, webhookJobs } from '../../src/areas/webhooks/webhooks.jobs.js';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createHook, deliveriesOf, emit, type Receiver, runRetriesNow, startReceiver, waitFor, waitForDeliveries, webhookWorker } from './helpers.js';

let t: TestApp;
let admin: TestUser;
let ws: string;
const workers: Worker[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORK: true, WEBHOOK_TIMEOUT_MS: 3000 });
  admin = await createUser(t, 'Admin');
  ws = (await createWorkspace(t, admin)).id;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(1000)));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  // Endpoints of earlier tests get nothing more.
  await t.database.db.deleteFrom('webhooks').where('workspaceId', '=', ws).execute();
});
afterAll(async () => {
  await t?.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}
function worker(config = {}, id?: string) {
  const w = webhookWorker(t, config, id);
  workers.push(w);
  return w;
}
const headersOf = (h: Record<string, unknown>) => ({
  'webhook-id': String(h['webhook-id']),
  'webhook-timestamp': String(h['webhook-timestamp']),
  'webhook-signature': String(h['webhook-signature']),
});

describe('webhook deliveries', () => {
  it('delivers subscribed events, signed (Standard Webhooks), with the event as body', async () => {
    const r = await receiver();
    const { webhook, secret } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['page.created', 'comment.created'] });
    const { events, fanned } = await emit(t, admin, [
      { workspaceId: ws, type: 'page.created', subject: { type: 'page', id: 'p1' }, spaceId: 's1', pageId: 'p1', data: { title: 'Hello' } },
      { workspaceId: ws, type: 'task.created', subject: { type: 'task', id: 't1' } },
    ]);
    expect(fanned).toBe(1);
    worker();
    const [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds.length === 1 && ds[0].status === 'delivered');
    expect(d).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200, responseExcerpt: 'ok', eventType: 'page.created', nextAttemptAt: null });
    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    const pageEvent = events.find((e) => e.type === 'page.created');
    expect(got.headers['webhook-id']).toBe(pageEvent?.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('kb-webhooks');
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const verified = new Webhook(secret).verify(got.body, headersOf(got.headers)) as Record<string, any>;
    expect(verified).toMatchObject({
      type: 'page.created',
      data: { eventId: pageEvent?.id, workspaceId: ws, subject: { type: 'page', id: 'p1' }, spaceId: 's1', pageId: 'p1', actorId: admin.id, title: 'Hello' },
    });
    expect(new Date(verified.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // A tampered body fails verification.
    expect(() => new Webhook(secret).verify(got.body.replace('Hello', 'Hullo'), headersOf(got.headers))).toThrow();
  });

  it('retries with backoff through the job queue and succeeds; the webhook-id stays the same', async () => {
    const r = await receiver();
    r.answer((_req, res, n) => {
      res.statusCode = n <= 2 ? 500 : 204;
      res.end(n <= 2 ? 'down' : '');
    });
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created', subject: { type: 'task', id: 't1' } }]);
    worker();
    let [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.attempts === 1);
    expect(d).toMatchObject({ status: 'retrying', responseStatus: 500, responseExcerpt: 'down', lastError: 'answered 500' });
    const wait1 = new Date(d.nextAttemptAt ?? 0).getTime() - Date.now();
    expect(wait1).toBeGreaterThan(20_000);
    expect(wait1).toBeLessThan(31_000);
    // Nothing happens before its time.
    await new Promise((res) => setTimeout(res, 150));
    expect(r.received).toHaveLength(1);
    expect(await runRetriesNow(t, webhook.id)).toBe(1);
    [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.attempts === 2);
    const wait2 = new Date(d.nextAttemptAt ?? 0).getTime() - Date.now();
    expect(wait2).toBeGreaterThan(100_000);
    await runRetriesNow(t, webhook.id);
    [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204, lastError: null, nextAttemptAt: null });
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(r.received).toHaveLength(3);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const r = await receiver();
    r.answer((req, res) => {
      if (req.url === '/hook') {
        res.writeHead(307, { location: '/elsewhere' });
        res.end();
      } else res.end('followed');
    });
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }]);
    worker();
    const [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.attempts === 1);
    expect(d).toMatchObject({ status: 'retrying', responseStatus: 307 });
    await new Promise((res) => setTimeout(res, 100));
    expect(r.received.map((x) => x.url)).toEqual(['/hook']);
  });

  it('reads at most WEBHOOK_MAX_RESPONSE_BYTES of an answer, and masks the secret in the excerpt', async () => {
    const r = await receiver();
    const endless = await receiver();
    endless.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(1024)), 2);
      res.on('close', () => clearInterval(timer));
    });
    const long = await createHook(t, admin, { workspaceId: ws, url: endless.url, events: ['*'] });
    let secret = '';
    r.answer((_req, res) => res.end(`thanks! your secret is ${secret} and ${secret.slice(6)} ${'y'.repeat(5000)}`));
    const echo = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    secret = echo.secret;
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }]);
    worker({ WEBHOOK_MAX_RESPONSE_BYTES: 8192 });
    const [d] = await waitForDeliveries(t, admin, long.webhook.id, (ds) => ds[0]?.status === 'delivered', 8000);
    expect(d.status).toBe('delivered');
    expect(d.durationMs).toBeLessThan(3000);
    expect(d.responseExcerpt?.length).toBeLessThanOrEqual(1024);
    const [e] = await waitForDeliveries(t, admin, echo.webhook.id, (ds) => ds[0]?.status === 'delivered');
    expect(e.responseExcerpt).toContain('thanks! your secret is whsec_***');
    expect(e.responseExcerpt).not.toContain(secret.slice(6, 30));
    expect(e.responseExcerpt?.length).toBeLessThanOrEqual(1024);
  });

  it('times out a slow endpoint', async () => {
    const r = await receiver();
    r.answer(() => {});
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }]);
    worker({ WEBHOOK_TIMEOUT_MS: 300 });
    const [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.attempts === 1);
    expect(d).toMatchObject({ status: 'retrying', responseStatus: null });
    expect(d.lastError).toMatch(/timed out/);
  });

  it('leaves out events about restricted pages; delivers events in private spaces', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    const space = await t.request({
      method: 'POST',
      url: '/api/v1/spaces',
      token: admin.token,
      body: { workspaceId: ws, name: 'Secret', visibility: 'private' },
    });
    expect(space.status, JSON.stringify(space.body)).toBe(201);
    const spaceId = space.body.data.id;
    const mk = async (title: string, parentId?: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/pages',
        token: admin.token,
        body: { workspaceId: ws, spaceId, title, markdown: 'x', parentId },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const open = await mk('Open');
    const closed = await mk('Closed');
    const below = await mk('Below', closed);
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${closed}/restriction`,
      token: admin.token,
      body: { grants: [{ userId: admin.id, role: 'editor' }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const { fanned } = await emit(t, admin, [
      { workspaceId: ws, type: 'page.updated', subject: { type: 'page', id: open }, spaceId, pageId: open },
      { workspaceId: ws, type: 'page.updated', subject: { type: 'page', id: closed }, spaceId, pageId: closed },
      { workspaceId: ws, type: 'comment.created', subject: { type: 'comment', id: 'c1' }, spaceId, pageId: below },
    ]);
    expect(fanned).toBe(1);
    worker();
    const ds = await waitForDeliveries(t, admin, webhook.id, (x) => x.length === 1 && x[0].status === 'delivered');
    expect(ds).toHaveLength(1);
    expect(JSON.parse(r.received[0].body).data.pageId).toBe(open);
  });

  it('refuses private addresses at delivery when the setting is off (DNS may have changed since registration)', async () => {
    const r = await receiver();
    const byIp = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    const byName = await createHook(t, admin, { workspaceId: ws, url: `http://localhost:${r.port}/hook`, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }]);
    worker({ WEBHOOK_ALLOW_PRIVATE_NETWORK: false });
    for (const hook of [byIp, byName]) {
      const [d] = await waitForDeliveries(t, admin, hook.webhook.id, (ds) => ds[0]?.attempts === 1);
      expect(d).toMatchObject({ status: 'retrying', responseStatus: null });
      expect(d.lastError).toMatch(/^private_address: /);
    }
    expect(r.received).toHaveLength(0);
  });

  it('rotating the secret: the next delivery verifies with the new secret only', async () => {
    const r = await receiver();
    const { webhook, secret: old } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    const rotated = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/rotate-secret`, token: admin.token });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    const ping = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/ping`, token: admin.token });
    expect(ping.status, JSON.stringify(ping.body)).toBe(202);
    expect(ping.body.data).toMatchObject({ eventType: 'webhook.ping', status: 'pending' });
    worker();
    await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    const got = r.received[0];
    expect(() => new Webhook(old).verify(got.body, headersOf(got.headers))).toThrow();
    expect(new Webhook(fresh).verify(got.body, headersOf(got.headers))).toMatchObject({ type: 'webhook.ping', data: { webhookId: webhook.id } });
  });

  it('redelivers on demand under the same webhook-id', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'goal.progress_changed', subject: { type: 'goal', id: 'g1' }, data: { from: 10, to: 50 } }]);
    worker();
    const [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    const again = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/deliveries/${d.id}/redeliver`, token: admin.token });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body.data).toMatchObject({ id: d.id, status: 'pending', attempts: 0 });
    await waitFor(
      async () => r.received.length,
      (n) => n === 2,
    );
    const [after] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    expect(after.attempts).toBe(1);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([d.eventId, d.eventId]);
    const other = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/deliveries/nope/redeliver`, token: admin.token });
    expect(other.status).toBe(404);
  });

  /** An endpoint answering 503 to everything, with 3 events delivered to it until each failed for good (8 attempts). */
  async function failThreeDeliveries() {
    const r = await receiver();
    r.answer((_req, res) => {
      res.statusCode = 503;
      res.end('nope');
    });
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(
      t,
      admin,
      [1, 2, 3].map((n) => ({ workspaceId: ws, type: 'task.created' as const, subject: { type: 'task' as const, id: `t${n}` } })),
    );
    worker();
    const ds = await waitFor(
      async () => {
        await runRetriesNow(t, webhook.id);
        return deliveriesOf(t, admin, webhook.id);
      },
      (x) => x.length === 3 && x.every((d) => d.status === 'failed'),
      30_000,
    );
    expect(ds.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', 8],
      ['failed', 8],
      ['failed', 8],
    ]);
    expect(r.received).toHaveLength(24);
    const got = await t.request({ url: `/api/v1/webhooks/${webhook.id}`, token: admin.token });
    expect(got.body.data).toMatchObject({ enabled: false, failedDeliveriesInRow: 3, disabledReason: '3 deliveries in a row failed' });
    return webhook;
  }
  const disabledNotes = async () =>
    (
      await sql<{
        kind: string;
        subjectId: string;
      }>`select kind, subject_id from notifications where user_id = ${admin.id} and kind = 'webhook_disabled'`.execute(t.database.db)
    ).rows;

  it('disables an endpoint after 3 deliveries failed for good, and tells the admins', async () => {
    const webhook = await failThreeDeliveries();
    // Written with the last failure, in its transaction: seen as soon as the deliveries are.
    expect(await disabledNotes()).toEqual([{ kind: 'webhook_disabled', subjectId: webhook.id }]);
    // A disabled endpoint gets no new deliveries, and no pings.
    expect((await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }])).fanned).toBe(0);
    expect((await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/ping`, token: admin.token })).status).toBe(422);
  });

  it('still disables the endpoint and records the last failure when telling the admins fails', async () => {
    await t.database.db.deleteFrom('notifications').where('kind', '=', 'webhook_disabled').execute();
    await sql`create function refuse_note() returns trigger language plpgsql as $$ begin raise exception 'notifications are refused'; end $$`.execute(
      t.database.db,
    );
    await sql`create trigger refuse_note before insert on notifications for each row execute function refuse_note()`.execute(t.database.db);
    try {
      await failThreeDeliveries();
      expect(await disabledNotes()).toEqual([]);
    } finally {
      await sql`drop trigger refuse_note on notifications`.execute(t.database.db);
      await sql`drop function refuse_note()`.execute(t.database.db);
    }
  });

  it('delivers each event once with two workers', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    const { events } = await emit(
      t,
      admin,
      Array.from({ length: 20 }, (_, n) => ({ workspaceId: ws, type: 'task.created' as const, subject: { type: 'task' as const, id: `t${n}` } })),
    );
    worker({}, 'w1');
    worker({}, 'w2');
    const ds = await waitForDeliveries(t, admin, webhook.id, (x) => x.length === 20 && x.every((d) => d.status === 'delivered'), 20_000);
    expect(ds.every((d) => d.attempts === 1)).toBe(true);
    expect(r.received).toHaveLength(20);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(events.map((e) => e.id)));
  });

  it('the sweep re-queues a delivery whose job was lost', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['*'] });
    await emit(t, admin, [{ workspaceId: ws, type: 'task.created' }]);
    const db = t.database.db;
    const [d] = await deliveriesOf(t, admin, webhook.id);
    // Its job is gone (failed for good on a database error, say), and it is overdue.
    await sql`delete from jobs where kind = 'webhooks.deliver' and payload ->> 'deliveryId' = ${d.id}`.execute(db);
    await sql`update webhook_deliveries set next_attempt_at = now() - interval '10 minutes' where id = ${d.id}`.execute(db);
    const sweep = webhookJobs.handlers[SWEEP_JOB_KIND];
    const jc = { db, env: { config: t.config } as never, log: { info() {}, error() {} }, signal: new AbortController().signal };
    expect(await sweep({ id: 'j', kind: SWEEP_JOB_KIND, workspaceId: null, payload: {}, attempts: 1, maxAttempts: 1 }, jc)).toEqual({ requeued: 1 });
    // Once queued, it is not stranded any more.
    expect(await sweep({ id: 'j', kind: SWEEP_JOB_KIND, workspaceId: null, payload: {}, attempts: 1, maxAttempts: 1 }, jc)).toEqual({ requeued: 0 });
    worker();
    const [after] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    expect(after.attempts).toBe(1);
    expect(r.received).toHaveLength(1);
  });

  it('is fed by the events dispatcher', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t, admin, { workspaceId: ws, url: r.url, events: ['member.joined'] });
    await recordEvent(
      t.database.db,
      { actor: { userId: admin.id, via: 'jwt', apiKeyId: null } },
      { workspaceId: ws, type: 'member.joined', subject: { type: 'member', id: admin.id } },
    );
    await dispatchEvents(t.database.db);
    worker();
    const [d] = await waitForDeliveries(t, admin, webhook.id, (ds) => ds[0]?.status === 'delivered');
    expect(d.eventType).toBe('member.joined');
  });
});
