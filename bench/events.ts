/**
 * The event stream's cost (issue 16): `npx tsx bench/events.ts`. The service runs in a child process (src/main.ts on a
 * fresh PGlite folder, with its background worker, so the dispatcher and the deliveries run as in production).
 * EVENTS_BENCH_UPDATES (default 1000) page renames go through `PUT /api/v1/pages/:id`, EVENTS_BENCH_CONCURRENCY at a
 * time (default 4), twice:
 *   none — no webhook and no watcher: "done" is when the last update answered;
 *   with — 3 webhooks subscribed to page.updated (a local HTTP receiver answering 204) and 20 watchers of the page:
 *          "done" is when the receiver has every delivery (3 × updates; an event's notifications are committed with
 *          its deliveries, before any is sent) and every watcher has a notification about the page.
 * Printed: the time until done as a ratio (with / none), and the p95 of the update requests as a ratio. Print only.
 */
import { createServer } from 'node:http';
import { percentile } from './lib/sequential.js';
import { startServiceProcess } from './lib/service-process.js';

const UPDATES = Number(process.env.EVENTS_BENCH_UPDATES ?? 1000);
const CONCURRENCY = Number(process.env.EVENTS_BENCH_CONCURRENCY ?? 4);
const WEBHOOKS = 3;
const WATCHERS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function client(baseUrl: string) {
  return async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
}

/** A webhook endpoint on this machine: counts deliveries by event type. */
async function receiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, received: () => received, close: () => new Promise((r) => server.close(r)) };
}

async function signUp(api: ReturnType<typeof client>, name: string) {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await api('POST', '/v1/auth/signup', undefined, { email, password: 'correct-horse', name });
  return { id: res.data.user.id as string, token: res.data.token as string };
}

/** Renames the page `UPDATES` times, `CONCURRENCY` at a time; answers the latencies (ms) and when the last one answered. */
async function renames(api: ReturnType<typeof client>, token: string, pageId: string, label: string) {
  const latencies: number[] = [];
  let next = 0;
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= UPDATES) return;
      const started = performance.now();
      await api('PUT', `/v1/pages/${pageId}`, token, { title: `${label} ${i}` });
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return latencies.sort((a, b) => a - b);
}

async function main() {
  const hooks = await receiver();
  const service = await startServiceProcess('pglite', { WORKERS: '2', WEBHOOK_ALLOW_PRIVATE_NETWORK: 'true', LOG_LEVEL: 'error' });
  try {
    const api = client(service.url);
    const owner = await signUp(api, 'owner');
    const ws = await api('POST', '/v1/workspaces', owner.token, { name: 'Bench', hostname: `bench-${Date.now()}` });
    const workspaceId = ws.data.id as string;
    const space = await api('POST', '/v1/spaces', owner.token, { workspaceId, name: 'Wiki' });
    const newPage = async (title: string) =>
      (await api('POST', '/v1/pages', owner.token, { workspaceId, spaceId: space.data.id, title, markdown: 'Some text.' })).data.id as string;

    // none: a page no one watches, no webhook.
    const quietPage = await newPage('Quiet');
    let t0 = performance.now();
    const quiet = await renames(api, owner.token, quietPage, 'Quiet');
    const noneDone = performance.now() - t0;

    // with: 3 webhooks and 20 watchers of another page.
    const watchers = [];
    for (let i = 0; i < WATCHERS; i++) {
      const w = await signUp(api, `watcher${i}`);
      await api('POST', `/v1/workspaces/${workspaceId}/members`, owner.token, { userId: w.id, role: 'viewer' });
      watchers.push(w);
    }
    if (process.env.EVENTS_BENCH_VERBOSE) console.log(`none done in ${noneDone.toFixed(0)} ms; setting up watchers and webhooks`);
    const busyPage = await newPage('Busy');
    for (const w of watchers) await api('PUT', `/v1/pages/${busyPage}/watch`, w.token);
    for (let i = 0; i < WEBHOOKS; i++) await api('POST', '/v1/webhooks', owner.token, { workspaceId, url: `${hooks.url}?n=${i}`, events: ['page.updated'] });
    await sleep(3000); // let the setup's own events drain
    const receivedBefore = hooks.received();
    t0 = performance.now();
    const busy = await renames(api, owner.token, busyPage, 'Busy');
    const requestsDone = performance.now() - t0;
    // Notifications are written in the same dispatcher transaction as the deliveries, before any delivery is sent:
    // once every delivery has arrived, every notification exists. Each watcher must have one about the page.
    const watcherCaughtUp = async (w: { token: string }) => {
      const res = await api('GET', `/v1/notifications?workspaceId=${workspaceId}&limit=5`, w.token);
      return (res.data as { subject: { id: string } }[]).some((n) => n.subject.id === busyPage);
    };
    const deadline = Date.now() + Number(process.env.EVENTS_BENCH_WAIT_MS ?? 10 * 60_000);
    let pendingWatchers = [...watchers];
    for (;;) {
      const deliveries = hooks.received() - receivedBefore;
      if (deliveries >= WEBHOOKS * UPDATES) {
        const still = [];
        for (const w of pendingWatchers) if (!(await watcherCaughtUp(w))) still.push(w);
        pendingWatchers = still;
        if (pendingWatchers.length === 0) break;
      }
      if (process.env.EVENTS_BENCH_VERBOSE) console.log(`waiting: ${deliveries} deliveries, ${pendingWatchers.length} watchers behind`);
      if (Date.now() > deadline) {
        console.log(`gave up: ${deliveries} of ${WEBHOOKS * UPDATES} deliveries, ${pendingWatchers.length} watchers behind`);
        break;
      }
      await sleep(100);
    }
    const withDone = performance.now() - t0;
    const p95 = (xs: number[]) => percentile(xs, 95);
    console.log(`events bench: ${UPDATES} page updates over HTTP, ${CONCURRENCY} at a time (PGlite, worker in the service)`);
    console.log(`  none: last update answered after ${noneDone.toFixed(0)} ms; p95 ${p95(quiet).toFixed(1)} ms`);
    console.log(
      `  with ${WEBHOOKS} webhooks + ${WATCHERS} watchers: requests done after ${requestsDone.toFixed(0)} ms, every delivery and notification after ${withDone.toFixed(0)} ms; p95 ${p95(busy).toFixed(1)} ms`,
    );
    console.log(`  time until done: ×${(withDone / noneDone).toFixed(2)}; p95 of the update requests: ×${(p95(busy) / p95(quiet)).toFixed(2)}`);
  } finally {
    await service.stop();
    await hooks.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
