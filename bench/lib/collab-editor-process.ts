/**
 * One client process of the co-editing bench (bench/collab.ts, COLLAB_BENCH_CLIENT_PROCS ≥ 2), forked by
 * `startEditorProcesses` (collab-editor-processes.ts): it hosts its share of the N editors on each transport (real
 * `@hocuspocus/provider` clients for the service, plain ws clients for the relay), types when told, on the same
 * schedule as the others, and sends back its events timed on a clock shared by processes
 * (`sharedNow`, the monotonic clock), its documents' final content (hashed) and how well it kept up.
 */
import { createHash } from 'node:crypto';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import * as Y from 'yjs';
import { connect } from '../../test/collab/helpers.js';
import { prng } from '../search-relevance/corpus.js';
import { relayEditor, sharedNow, type Transport } from './collab-editors.js';
import { contentOf, typeUntil, watchArrivals } from './convergence.js';

export type ToEditors =
  | { kind: 'connect'; serviceUrl: string; pageId: string; token: string; relayPort: number; seed: Uint8Array; editors: number }
  | { kind: 'type'; transport: Transport; startAt: number; seconds: number; everyMs: number; seed: number }
  | { kind: 'drain'; expected: [client: number, clock: number][]; drainMs: number }
  | { kind: 'close' };

export type FromEditors =
  | { kind: 'ready' }
  | { kind: 'connected' }
  | { kind: 'typed'; finalClocks: [client: number, clock: number][] }
  | {
      kind: 'drained';
      /** (client, clock, at) triples, one per keystroke. */
      keystrokes: Float64Array;
      /** (receiver, client, clock, at) quadruples: `receiver` has every insert of `client` below `clock` since `at`. */
      arrivals: Float64Array;
      /** A hash of each document's final content. */
      contents: string[];
      /** This process's event-loop delay p99 over this transport's rounds so far, ms. */
      loopP99Ms: number;
    };

const send = (message: FromEditors) => process.send?.(message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const docs: Record<Transport, Y.Doc[]> = { relay: [], service: [] };
const closers: (() => void)[] = [];
const loopDelay: Record<Transport, IntervalHistogram> = { relay: monitorEventLoopDelay({ resolution: 5 }), service: monitorEventLoopDelay({ resolution: 5 }) };
let round: { transport: Transport; keystrokes: number[]; arrivals: number[]; unwatch: (() => void)[] } | null = null;

async function onConnect(m: Extract<ToEditors, { kind: 'connect' }>) {
  const clients = Array.from({ length: m.editors }, () => connect(m.serviceUrl, m.pageId, m.token));
  closers.push(...clients.map((c) => () => c.destroy()));
  const relayed = await Promise.all(Array.from({ length: m.editors }, () => relayEditor(m.relayPort, m.seed)));
  closers.push(...relayed.map((e) => e.close));
  await Promise.all(clients.map((c) => c.synced));
  docs.service = clients.map((c) => c.doc);
  docs.relay = relayed.map((e) => e.doc);
  send({ kind: 'connected' });
}

async function onType(m: Extract<ToEditors, { kind: 'type' }>) {
  const own = docs[m.transport];
  const r = { transport: m.transport, keystrokes: [] as number[], arrivals: [] as number[], unwatch: [] as (() => void)[] };
  round = r;
  loopDelay[m.transport].enable();
  r.unwatch = own.map((doc) => watchArrivals(doc, (...a) => r.arrivals.push(...a), sharedNow));
  await sleep(m.startAt - sharedNow());
  await typeUntil(own, m.startAt + m.seconds * 1000, m.everyMs, prng(m.seed), (...k) => r.keystrokes.push(...k), sharedNow);
  send({ kind: 'typed', finalClocks: own.map((d) => [d.clientID, Y.getState(d.store, d.clientID)]) });
}

async function onDrain(m: Extract<ToEditors, { kind: 'drain' }>) {
  if (!round) throw new Error('drain before type');
  const r = round;
  const own = docs[r.transport];
  const caughtUp = () => own.every((d) => m.expected.every(([client, clock]) => Y.getState(d.store, client) >= clock));
  const until = performance.now() + m.drainMs;
  while (!caughtUp() && performance.now() < until) await sleep(20);
  for (const off of r.unwatch) off();
  loopDelay[r.transport].disable();
  round = null;
  send({
    kind: 'drained',
    keystrokes: Float64Array.from(r.keystrokes),
    arrivals: Float64Array.from(r.arrivals),
    contents: own.map((d) => createHash('sha256').update(contentOf(d)).digest('hex')),
    loopP99Ms: loopDelay[r.transport].percentile(99) / 1e6,
  });
}

process.on('message', (m: ToEditors) => {
  const done = m.kind === 'connect' ? onConnect(m) : m.kind === 'type' ? onType(m) : m.kind === 'drain' ? onDrain(m) : Promise.resolve(close());
  done.catch((err) => {
    console.error(err);
    process.exit(1);
  });
});

function close() {
  for (const c of closers) c();
  setTimeout(() => process.exit(0), 200);
}

// Without the bench (it ended or failed), nothing is left to do.
process.on('disconnect', () => process.exit(0));
send({ kind: 'ready' });
