/**
 * Co-editing (issue 13): `npx tsx bench/collab.ts`. The service runs in a child process (`src/main.ts` through tsx, on
 * a fresh PGlite folder, then on a fresh PostgreSQL database when DATABASE_URL is set), so its CPU and resident memory
 * are read from /proc; the clients are Node `@hocuspocus/provider` clients (test/collab/helpers.ts): for converge spread
 * over COLLAB_BENCH_CLIENT_PROCS forked client processes (default 2, bench/lib/collab-editor-process.ts; 1 keeps them
 * in this process, as the first figures were taken), elsewhere in this process.
 * 1. Converge: N editors (COLLAB_BENCH_EDITORS, default 2,10,50) type into one page, one character every ~100 ms
 *    each at a random place, for COLLAB_BENCH_SECONDS (default 15, in COLLAB_BENCH_ROUNDS rounds, default 3). Each
 *    insert is marked by its Yjs id; figures are the time from the keystroke until every other client has it (and
 *    until each other client has it), p50/p95/max, with the service's CPU and RSS over the run. Baseline, same N,
 *    same clients and typing: a plain WebSocket relay in a child process (`ws`, each message sent on to every other
 *    socket, no Yjs, no Hocuspocus, no database), its rounds alternating with the service's: the floor of fan-out and
 *    client-side applying on this machine while the clients keep up (it never merges updates, as Hocuspocus does those
 *    arriving in one event-loop turn, so once they fall behind it falls further). Goal: p95 < 100 ms at N=50. Per client process: its CPU, keystrokes made
 *    against planned and event-loop delay p99, to show whether the clients kept up.
 * 2. Memory per open document: COLLAB_BENCH_DOCS pages (default 500) of ~2 KB each, opened over multiplexed sockets
 *    (one HocuspocusProviderWebsocket per 50 documents), service RSS after all are synced less before, per document:
 *    the first opening (each page's Yjs state is built and stored) and, after all are closed and unloaded, a second.
 * 3. A REST write (GET the page, then a timed `PUT /api/v1/pages/:id` with its first paragraph replaced) to a live page
 *    (3 clients connected, one typing) against the same write to a page no one has open (co-edited before, so it has
 *    a stored Yjs state), and to a page never co-edited; COLLAB_BENCH_WRITES each (default 200), interleaved.
 * WORKERS=0 in the service unless COLLAB_BENCH_WORKERS is set: the background worker (knowledge indexing of every
 * written page, an embedding model in memory) is not what this measures.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { type CollabClient, collabUrl, connect } from '../test/collab/helpers.js';
import { type EditorProcessFigures, type EditorsRound, startEditorProcesses } from './lib/collab-editor-processes.js';
import { relayEditor, seedState, type Transport } from './lib/collab-editors.js';
import { typeTogether } from './lib/convergence.js';
import { describeLatencies, type Latencies, percentile } from './lib/sequential.js';
import { type ProcessUsage, processUsage, type ServiceProcess, startChild, startServiceProcess, stopChild } from './lib/service-process.js';
import type { DatabaseKind } from './lib/target.js';

const EDITORS = (process.env.COLLAB_BENCH_EDITORS ?? '2,10,50').split(',').map(Number);
const SECONDS = Number(process.env.COLLAB_BENCH_SECONDS ?? 15);
const DOCS = Number(process.env.COLLAB_BENCH_DOCS ?? 500);
const WRITES = Number(process.env.COLLAB_BENCH_WRITES ?? 200);
const ROUNDS = Number(process.env.COLLAB_BENCH_ROUNDS ?? 3);
const GOAL = { p95Ms: 100, atEditors: 50 };
const DOCS_PER_SOCKET = 50;
/** Client processes the converge editors are spread over; 1 keeps them all in this process, as before. */
const CLIENT_PROCS = Number(process.env.COLLAB_BENCH_CLIENT_PROCS ?? 2);
const EVERY_MS = 100;
const DRAIN_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${x.toFixed(1)} ms`;
const latencies = (label: string, xs: number[]): Latencies => ({ label, sorted: [...xs].sort((a, b) => a - b) });

/** About 2 KB of Markdown: a heading and paragraphs of team-wiki prose. */
function wikiMarkdown(i: number) {
  const para = `Team ${i} ships a release every second week, reviews the budget each quarter and keeps its runbooks here.`;
  return `# Guide ${i}\n\n${Array.from({ length: 18 }, (_, k) => `${para} Step ${k}.`).join('\n\n')}`;
}

/** The service's REST API, over HTTP as a client sees it; throws unless 2xx. */
function restClient(baseUrl: string) {
  return async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
}

async function seedWorkspace(service: ServiceProcess) {
  const api = restClient(service.url);
  const email = `collab-bench-${Date.now()}@example.test`;
  const { token } = (await api('POST', '/api/v1/auth/signup', undefined, { email, password: 'correct horse battery staple', name: 'Bench' })).data;
  const workspaceId = (await api('POST', '/api/v1/workspaces', token, { name: 'Bench', hostname: `collab${Date.now() % 1e6}` })).data.id;
  const spaceId = (await api('POST', '/api/v1/spaces', token, { workspaceId, name: 'Live' })).data.id;
  const newPage = async (title: string, markdown: string): Promise<string> =>
    (await api('POST', '/api/v1/pages', token, { workspaceId, spaceId, title, markdown })).data.id;
  return { api, token, newPage };
}
type Workspace = Awaited<ReturnType<typeof seedWorkspace>>;

const within = <T>(what: string, p: Promise<T>, timeoutMs = 60_000) =>
  Promise.race([p, sleep(timeoutMs).then(() => Promise.reject(new Error(`timed out: ${what}`)))]);

interface Watched<T> {
  result: T;
  start: ProcessUsage;
  end: ProcessUsage;
  peakRssMb: number;
}

/** A process's CPU and peak RSS while `work` runs (RSS sampled every 250 ms). */
async function watched<T>(pid: number, work: () => Promise<T>): Promise<Watched<T>> {
  const start = processUsage(pid);
  let peak = start.rssMb;
  const sampler = setInterval(() => (peak = Math.max(peak, processUsage(pid).rssMb)), 250);
  try {
    const result = await work();
    const end = processUsage(pid);
    return { result, start, end, peakRssMb: Math.max(peak, end.rssMb) };
  } finally {
    clearInterval(sampler);
  }
}

// ---- 1. Converge ----

/** The baseline's transport: a bare `ws` server in a child process that sends each message on to every other socket. */
const RELAY = `import { WebSocketServer } from 'ws';
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('connection', (s) => s.on('message', (m, binary) => { for (const o of wss.clients) if (o !== s && o.readyState === 1) o.send(m, { binary }); }));
wss.on('listening', () => console.log('relay on ' + wss.address().port));`;

/** The rounds of one transport at one N, pooled: latencies together, CPU over the sum of their wall times. */
interface ConvergeRun {
  toAll: Latencies;
  toEach: Latencies;
  inserts: number;
  missing: number;
  converged: boolean;
  cpu: number;
  startRssMb: number;
  peakRssMb: number;
  /** Per client process: its CPU (% of one core), keystrokes made against those planned (below 100 %, its timers
   * ran late) and the p99 of its event-loop delay over the rounds (how late its clients could be to see anything). */
  clients: { cpu: number; typedShare: number; loopP99Ms: number }[];
}

function pooled(rounds: Watched<EditorsRound>[]): ConvergeRun {
  const wallMs = rounds.reduce((t, r) => t + (r.end.at - r.start.at), 0);
  const cpuS = rounds.reduce((t, r) => t + (r.end.cpuSeconds - r.start.cpuSeconds), 0);
  const figures = rounds.map((r) => r.result.figures);
  const sum = (i: number, f: (p: EditorProcessFigures) => number) => rounds.reduce((t, r) => t + f(r.result.processes[i]), 0);
  return {
    toAll: latencies(
      'to all',
      figures.flatMap((f) => f.toAll.sorted),
    ),
    toEach: latencies(
      'to each',
      figures.flatMap((f) => f.toEach.sorted),
    ),
    inserts: figures.reduce((t, f) => t + f.inserts, 0),
    missing: figures.reduce((t, f) => t + f.missing, 0),
    converged: figures.every((f) => f.converged),
    cpu: ((cpuS * 1000) / wallMs) * 100,
    startRssMb: rounds[0].start.rssMb,
    peakRssMb: Math.max(...rounds.map((r) => r.peakRssMb)),
    clients: rounds[0].result.processes.map((_, i) => ({
      cpu: (sum(i, (p) => p.cpuMs) / wallMs) * 100,
      typedShare: sum(i, (p) => p.keystrokes) / sum(i, (p) => p.planned),
      loopP99Ms: rounds.at(-1)?.result.processes[i].loopP99Ms ?? 0,
    })),
  };
}

function describeConverge(label: string, run: ConvergeRun) {
  const p = (l: Latencies, q: number) => ms(percentile(l.sorted, q));
  const client = (c: ConvergeRun['clients'][number]) =>
    `CPU ${c.cpu.toFixed(0)} %, ${(c.typedShare * 100).toFixed(0)} % of planned keystrokes, event-loop delay p99 ${ms(c.loopP99Ms)}`;
  return (
    `${label}: to all p50 ${p(run.toAll, 50)} p95 ${p(run.toAll, 95)} max ${ms(run.toAll.sorted.at(-1) ?? 0)}; to each p50 ${p(run.toEach, 50)} p95 ${p(run.toEach, 95)}; ` +
    `${run.inserts} inserts${run.missing ? `, ${run.missing} never reached everyone` : ''}, ${run.converged ? 'converged' : 'NOT converged'}; ` +
    `its CPU ${run.cpu.toFixed(0)} %, RSS ${run.startRssMb.toFixed(0)} → peak ${run.peakRssMb.toFixed(0)} MB; ` +
    `clients: ${run.clients.length === 1 ? client(run.clients[0]) : run.clients.map((c, i) => `process ${i + 1}: ${client(c)}`).join('; ')}` +
    (run.toEach.sorted[0] < 0 ? `; CLOCKS DISAGREE (to each min ${ms(run.toEach.sorted[0])})` : '')
  );
}

/** N editors on each transport, connected and synced, that type together one round at a time. */
interface Editors {
  round(transport: Transport, seed: number): Promise<EditorsRound>;
  close(): void;
}

/** All editors in this process (COLLAB_BENCH_CLIENT_PROCS=1, as before the split): one event loop applies every update. */
async function editorsHere(n: number, service: ServiceProcess, w: Workspace, pageId: string, relayPort: number, seed: Uint8Array): Promise<Editors> {
  const clients: CollabClient[] = Array.from({ length: n }, () => connect(service.url, pageId, w.token));
  const relayed = await Promise.all(Array.from({ length: n }, () => relayEditor(relayPort, seed)));
  const close = () => {
    for (const c of clients) c.destroy();
    for (const e of relayed) e.close();
  };
  try {
    await within(`${n} clients to sync`, Promise.all(clients.map((c) => c.synced)));
  } catch (err) {
    close();
    throw err;
  }
  const docs = { relay: relayed.map((e) => e.doc), service: clients.map((c) => c.doc) };
  const loopDelay = { relay: monitorEventLoopDelay({ resolution: 5 }), service: monitorEventLoopDelay({ resolution: 5 }) };
  return {
    async round(transport, roundSeed) {
      const self = process.cpuUsage();
      loopDelay[transport].enable();
      const figures = await typeTogether(docs[transport], SECONDS / ROUNDS, EVERY_MS, DRAIN_MS, roundSeed);
      loopDelay[transport].disable();
      const used = process.cpuUsage(self);
      const cpuMs = (used.user + used.system) / 1e3;
      return {
        figures,
        processes: [
          { keystrokes: figures.inserts, planned: (n * 1000 * SECONDS) / ROUNDS / EVERY_MS, cpuMs, loopP99Ms: loopDelay[transport].percentile(99) / 1e6 },
        ],
      };
    },
    close,
  };
}

/** The editors spread over CLIENT_PROCS forked client processes (bench/lib/collab-editor-process.ts). */
async function editorsInProcesses(n: number, service: ServiceProcess, w: Workspace, pageId: string, relayPort: number, seed: Uint8Array): Promise<Editors> {
  const setup = { serviceUrl: service.url, pageId, token: w.token, relayPort, seed };
  const group = await within(`${n} clients in ${CLIENT_PROCS} processes to sync`, startEditorProcesses(CLIENT_PROCS, n, setup), 120_000);
  return { round: (transport, roundSeed) => group.round(transport, SECONDS / ROUNDS, EVERY_MS, DRAIN_MS, roundSeed), close: group.close };
}

/**
 * N editors on the relay and N on the service, all connected first, then typing in ROUNDS alternating rounds
 * (relay, service; service, relay; …) of SECONDS / ROUNDS each, so a burst of load from elsewhere on the machine
 * falls on both sides alike.
 */
async function convergeAt(n: number, service: ServiceProcess, w: Workspace, relay: { port: number; pid: number }, seed: Uint8Array) {
  const pageId = await w.newPage(`Together ${n}`, 'Start');
  const editors = await (CLIENT_PROCS > 1 ? editorsInProcesses : editorsHere)(n, service, w, pageId, relay.port, seed);
  try {
    const side = (transport: Transport, pid: number) => ({ transport, pid, rounds: [] as Watched<EditorsRound>[] });
    const sides = [side('relay', relay.pid), side('service', service.pid)];
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 ? [sides[1], sides[0]] : sides) s.rounds.push(await watched(s.pid, () => editors.round(s.transport, n * 100 + round)));
    const [onRelay, onService] = sides.map((s) => pooled(s.rounds));
    return { relay: onRelay, service: onService };
  } finally {
    editors.close();
  }
}

async function converge(service: ServiceProcess, w: Workspace) {
  const where = CLIENT_PROCS > 1 ? `spread over ${CLIENT_PROCS} client processes` : 'all in this process';
  console.log(
    `\n1. Converge: N editors (${where}), a character every ~100 ms each at random places, ${SECONDS} s (${ROUNDS} rounds alternating with the relay)`,
  );
  const { child, match } = await startChild(['--input-type=module', '-e', RELAY], process.env, /relay on (\d+)/);
  const relay = { port: Number(match[1]), pid: child.pid as number };
  const rows: { n: number; service: ConvergeRun; relay: ConvergeRun }[] = [];
  try {
    for (const n of EDITORS) {
      const row = { n, ...(await convergeAt(n, service, w, relay, seedState())) };
      rows.push(row);
      console.log(`  N=${n}`);
      console.log(`    ${describeConverge('service', row.service)}`);
      console.log(`    ${describeConverge('relay (baseline)', row.relay)}`);
      const ratio = (q: number) => (percentile(row.service.toAll.sorted, q) / percentile(row.relay.toAll.sorted, q)).toFixed(1);
      console.log(`    service / relay, to all: p50 ${ratio(50)}×, p95 ${ratio(95)}×`);
    }
  } finally {
    await stopChild(child);
  }
  const atGoal = rows.find((r) => r.n === GOAL.atEditors);
  if (atGoal) {
    const p95 = percentile(atGoal.service.toAll.sorted, 95);
    console.log(`  goal: p95 < ${GOAL.p95Ms} ms at N=${GOAL.atEditors}; here ${ms(p95)}: ${p95 < GOAL.p95Ms ? 'met' : 'NOT met'}`);
  }
  const two = rows.find((r) => r.n === 2);
  if (two)
    console.log(
      `  against N=2 on the service (p50 ${ms(percentile(two.service.toAll.sorted, 50))}): ` +
        rows.map((r) => `N=${r.n} p50 ${(percentile(r.service.toAll.sorted, 50) / percentile(two.service.toAll.sorted, 50)).toFixed(1)}×`).join(', '),
    );
}

// ---- 2. Memory per open document ----

/** Opens every page over shared sockets (DOCS_PER_SOCKET documents each), resolving once all are synced. */
async function openAll(service: ServiceProcess, token: string, pageIds: string[]) {
  const sockets: HocuspocusProviderWebsocket[] = [];
  const providers: HocuspocusProvider[] = [];
  for (let start = 0; start < pageIds.length; start += DOCS_PER_SOCKET) {
    const socket = new HocuspocusProviderWebsocket({
      url: collabUrl(service.url),
      WebSocketPolyfill: WebSocket,
      maxAttempts: 50,
      delay: 100,
      minDelay: 100,
      maxDelay: 500,
    });
    sockets.push(socket);
    const synced = pageIds.slice(start, start + DOCS_PER_SOCKET).map(
      (name) =>
        new Promise<void>((resolve) => {
          const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: new Y.Doc(), token, onSynced: () => resolve() });
          provider.attach();
          providers.push(provider);
        }),
    );
    await within(`documents ${start}… to sync`, Promise.all(synced));
  }
  return () => {
    for (const p of providers) p.destroy();
    for (const s of sockets) s.destroy();
  };
}

/** The service's memory after `quietMs` of quiet and a full collection. */
async function settledMemory(service: ServiceProcess, quietMs = 3_000) {
  await sleep(quietMs);
  return service.memoryAfterGc();
}

async function memoryPerDocument(service: ServiceProcess, w: Workspace) {
  console.log(
    `\n2. Memory per open document: ${DOCS} pages of ~${(wikiMarkdown(0).length / 1024).toFixed(1)} KB of Markdown, ${DOCS_PER_SOCKET} documents a socket`,
  );
  const pageIds: string[] = [];
  for (let i = 0; i < DOCS; i += 8)
    pageIds.push(...(await Promise.all(Array.from({ length: Math.min(8, DOCS - i) }, (_, k) => w.newPage(`Guide ${i + k}`, wikiMarkdown(i + k))))));
  const before = await settledMemory(service);
  let t0 = performance.now();
  let close = await openAll(service, w.token, pageIds);
  const firstOpenS = (performance.now() - t0) / 1000;
  const first = await settledMemory(service);
  close();
  const closed = await settledMemory(service, 6_000);
  t0 = performance.now();
  close = await openAll(service, w.token, pageIds);
  const secondOpenS = (performance.now() - t0) / 1000;
  const second = await settledMemory(service);
  close();
  type Reading = typeof before;
  const perDoc = (a: Reading, b: Reading) =>
    `RSS ${(((b.rssMb - a.rssMb) * 1024) / DOCS).toFixed(1)} KB, JS heap ${(((b.heapUsedMb - a.heapUsedMb) * 1024) / DOCS).toFixed(1)} KB, external ${(((b.externalMb - a.externalMb) * 1024) / DOCS).toFixed(1)} KB`;
  const show = (r: Reading) => `RSS ${r.rssMb.toFixed(0)} MB (heap ${r.heapUsedMb.toFixed(0)}, external ${r.externalMb.toFixed(0)})`;
  console.log(`  service, after a full GC each time: ${show(before)} before; ${show(first)} with all ${DOCS} open (first opening, ${firstOpenS.toFixed(1)} s)`);
  console.log(`  ${show(closed)} after closing them; ${show(second)} with all open again (${secondOpenS.toFixed(1)} s)`);
  console.log(`  per open document, first opening: ${perDoc(before, first)}`);
  console.log(`  per open document, opened again:  ${perDoc(closed, second)}`);
}

// ---- 3. A REST write to a live page against the same write to a page no one has open ----

/** A client that resolves `sees(marker)` with the moment the first paragraph of its document holds `marker`. */
function watcher(client: CollabClient) {
  let wanted: { marker: string; resolve: (at: number) => void } | null = null;
  const check = () => {
    if (wanted && client.doc.getXmlFragment('default').get(0)?.toString().includes(wanted.marker)) {
      wanted.resolve(performance.now());
      wanted = null;
    }
  };
  client.doc.on('afterTransaction', check);
  return {
    sees: (marker: string) =>
      new Promise<number>((resolve) => {
        wanted = { marker, resolve };
        check();
      }),
  };
}

async function outsideWrites(service: ServiceProcess, w: Workspace) {
  console.log(`\n3. A REST write (GET, then a timed PUT of the content with its first paragraph replaced), ${WRITES} each, interleaved`);
  const markdown = wikiMarkdown(1);
  const live = await w.newPage('Live', markdown);
  const idle = await w.newPage('Idle', markdown);
  const never = await w.newPage('Never opened', markdown);
  // The idle page was co-edited once: it has a stored Yjs state, as a page people edited yesterday has.
  const once = connect(service.url, idle, w.token);
  await within('a client to sync', once.synced);
  once.type(' (edited live once)', 2);
  await sleep(2_500);
  once.destroy();
  const clients = Array.from({ length: 3 }, () => connect(service.url, live, w.token));
  await within('3 clients to sync', Promise.all(clients.map((c) => c.synced)));
  const watchers = clients.map(watcher);
  let typing = true;
  const typist = (async () => {
    while (typing) {
      clients[0].type('x', 5);
      await sleep(100);
    }
  })();
  const times: Record<'live' | 'idle' | 'never' | 'seen', number[]> = { live: [], idle: [], never: [], seen: [] };
  try {
    for (let i = 0; i < WRITES; i++)
      for (const [kind, pageId] of [
        ['live', live],
        ['idle', idle],
        ['never', never],
      ] as const) {
        const page = (await w.api('GET', `/api/v1/pages/${pageId}`, w.token)).data;
        const marker = `Edited over REST ${kind} ${i}`;
        const content = { ...page.content, content: [{ type: 'paragraph', content: [{ type: 'text', text: marker }] }, ...page.content.content.slice(1)] };
        const seen = kind === 'live' ? Promise.all(watchers.map((x) => x.sees(marker))) : null;
        const t0 = performance.now();
        await w.api('PUT', `/api/v1/pages/${pageId}`, w.token, { content });
        times[kind].push(performance.now() - t0);
        if (seen) times.seen.push(Math.max(...(await within('the live clients to see a REST write', seen, 10_000))) - t0);
      }
  } finally {
    typing = false;
    await typist;
    for (const c of clients) c.destroy();
  }
  const liveL = latencies('PUT to a live page (3 clients, one typing)', times.live);
  const idleL = latencies('PUT to a page no one has open (co-edited before)', times.idle);
  const neverL = latencies('PUT to a page never co-edited', times.never);
  for (const l of [liveL, idleL, neverL, latencies('PUT sent → all 3 live clients have it', times.seen)]) console.log(`  ${describeLatencies(l)}`);
  const r = (a: Latencies, b: Latencies, q: number) => (percentile(a.sorted, q) / percentile(b.sorted, q)).toFixed(2);
  console.log(
    `  live / idle: p50 ${r(liveL, idleL, 50)}×, p95 ${r(liveL, idleL, 95)}×; live / never co-edited: p50 ${r(liveL, neverL, 50)}×, p95 ${r(liveL, neverL, 95)}×`,
  );
}

async function runOn(kind: DatabaseKind) {
  const started = performance.now();
  const service = await startServiceProcess(kind, { WORKERS: process.env.COLLAB_BENCH_WORKERS ?? '0' });
  try {
    const idle = service.usage();
    console.log(`\n== ${kind}: the service in process ${service.pid} (src/main.ts through tsx), RSS ${idle.rssMb.toFixed(0)} MB at start`);
    const w = await seedWorkspace(service);
    if (!process.env.COLLAB_BENCH_ONLY || process.env.COLLAB_BENCH_ONLY === 'converge') await converge(service, w);
    if (!process.env.COLLAB_BENCH_ONLY || process.env.COLLAB_BENCH_ONLY === 'memory') await memoryPerDocument(service, w);
    if (!process.env.COLLAB_BENCH_ONLY || process.env.COLLAB_BENCH_ONLY === 'writes') await outsideWrites(service, w);
  } finally {
    await service.stop();
  }
  console.log(`\n${kind}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// COLLAB_BENCH_KINDS (e.g. `postgres`) runs only those of the default kinds.
const kinds = (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']) as DatabaseKind[];
for (const kind of kinds.filter((k) => !process.env.COLLAB_BENCH_KINDS || process.env.COLLAB_BENCH_KINDS.split(',').includes(k))) await runOn(kind);
process.exit(0);
