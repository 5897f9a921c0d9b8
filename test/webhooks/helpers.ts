import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import type { DomainEvent, EventSubjectType, EventType } from '../../src/areas/events/events.record.js';
import { type NewEvent, recordEvents } from '../../src/areas/events/events.record.js';
import { fanOutWebhooks } from '../../src/areas/webhooks/webhooks.fanout.js';
import { webhookJobs } from '../../src/areas/webhooks/webhooks.jobs.js';
import { createBlobStore } from '../../src/blobs/index.js';
import type { Config } from '../../src/config.js';
import { Worker } from '../../src/jobs/worker.js';
import { TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  url: string;
}

type Respond = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

/** A real HTTP endpoint on 127.0.0.1 that records what it receives and answers as `respond` says (200 by default). */
export async function startReceiver() {
  const received: Received[] = [];
  let respond: Respond = (_req, res) => res.end('ok');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      respond(req, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answer(fn: Respond) {
      respond = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A real worker over the test database running the webhooks' job handlers, polling often; `config` overrides the app's. */
export function webhookWorker(t: TestApp, config: Partial<Config> = {}, workerId?: string) {
  const env = { config: { ...t.config, ...config }, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(t.config) };
  const worker = new Worker({
    db: t.database.db,
    env,
    handlers: new Map(Object.entries(webhookJobs.handlers)),
    concurrency: 2,
    pollMs: 20,
    leaseMs: 3000,
    workerId,
  });
  worker.start();
  return worker;
}

export async function createHook(t: TestApp, admin: TestUser, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { webhook: { id: string; enabled: boolean }; secret: string };
}

/** Records events in the outbox and fans them out to webhooks the way the dispatcher does (one transaction); returns the events. */
export async function emit(t: TestApp, actor: TestUser, events: Array<Partial<NewEvent> & { workspaceId: string; type: EventType }>) {
  const db = t.database.db;
  const mark = randomUUID();
  const full: NewEvent[] = events.map((e) => ({ subject: { type: 'page' as EventSubjectType, id: 'subject-1' }, ...e, data: { title: 'T', ...e.data, mark } }));
  await recordEvents(db, { actor: { userId: actor.id, via: 'jwt', apiKeyId: null } }, full);
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('domainEvents')
      .selectAll()
      .where('dispatchedAt', 'is', null)
      .where(sql<boolean>`data ->> 'mark' = ${mark}`)
      .orderBy('id')
      .execute();
    const domain = rows.map((r) => ({ ...r, data: r.data as Record<string, unknown> }) as DomainEvent);
    const fanned = await fanOutWebhooks(trx, domain);
    await trx
      .updateTable('domainEvents')
      .set({ dispatchedAt: new Date() })
      .where(
        'id',
        'in',
        domain.map((e) => e.id),
      )
      .execute();
    return { events: domain, fanned };
  });
}

/** Brings the webhook's queued delivery jobs forward to now (instead of waiting out the backoff); returns how many. */
export async function runRetriesNow(t: TestApp, webhookId: string) {
  const res = await sql`update jobs set run_at = now() where kind = 'webhooks.deliver' and status = 'queued'
    and payload ->> 'deliveryId' in (select id from webhook_deliveries where webhook_id = ${webhookId})`.execute(t.database.db);
  return Number(res.numAffectedRows ?? 0);
}

export async function deliveriesOf(t: TestApp, admin: TestUser, webhookId: string) {
  const res = await t.request({ url: `/api/v1/webhooks/${webhookId}/deliveries`, token: admin.token, query: { limit: '100' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<{
    id: string;
    eventId: string;
    eventType: string;
    status: string;
    attempts: number;
    responseStatus: number | null;
    responseExcerpt: string | null;
    lastError: string | null;
    nextAttemptAt: string | null;
    durationMs: number | null;
  }>;
}

export async function waitFor<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the webhook's deliveries all satisfy `ok`, and returns them. */
export function waitForDeliveries(t: TestApp, admin: TestUser, webhookId: string, ok: (ds: Awaited<ReturnType<typeof deliveriesOf>>) => boolean, ms = 10_000) {
  return waitFor(() => deliveriesOf(t, admin, webhookId), ok, ms);
}
