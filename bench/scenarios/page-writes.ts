import { spawn } from 'node:child_process';
import { type LoadOptions, type Measurement, median } from '../lib/measure.js';
import { randomSource, realisticDocument, seedSpace } from './page-tree.js';
import type { Scenario } from './types.js';

const WRITERS = 10;

/**
 * The load generator, run as its own Node process (never on the server's event loop): `WRITERS` loops, each posting
 * its own body over a kept-alive connection for `duration` seconds, then one JSON line of figures.
 */
const GENERATOR = `
const { url, headers, bodies, duration } = JSON.parse(process.argv[1]);
const end = Date.now() + duration * 1000;
const latencies = [];
let non2xx = 0, errors = 0;
await Promise.all(bodies.map(async (body) => {
  while (Date.now() < end) {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status < 200 || res.status >= 300) non2xx++;
    } catch { errors++; }
    latencies.push(performance.now() - t0);
  }
}));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
console.log(JSON.stringify({ requests: latencies.length, reqPerSec: latencies.length / duration, p50: at(0.5), p99: at(0.99), non2xx, errors }));
`;

interface Writers {
  label: string;
  url: string;
  headers: Record<string, string>;
  bodies: string[];
}

function generate(w: Writers, duration: number): Promise<Omit<Measurement, 'label' | 'cpuPerRequest'>> {
  const args = ['--input-type=module', '-e', GENERATOR, JSON.stringify({ url: w.url, headers: w.headers, bodies: w.bodies, duration })];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop() ?? '')) : reject(new Error(`load generator failed: ${err}`))));
  });
}

/** Warms up, measures, refuses a run with errors; CPU per request is this process's (the service, PGlite). */
async function measureWriters(w: Writers, load: LoadOptions): Promise<Measurement> {
  if (load.warmup > 0) await generate(w, load.warmup);
  const cpuBefore = process.cpuUsage();
  const r = await generate(w, load.duration);
  const cpu = process.cpuUsage(cpuBefore);
  if (r.errors || r.non2xx || !r.requests) throw new Error(`${w.label}: ${r.requests} requests, ${r.errors} errors, ${r.non2xx} non-2xx: the run is not valid`);
  return { label: w.label, ...r, cpuPerRequest: (cpu.user + cpu.system) / r.requests };
}

/** Each writer's page: a child of its own parent, with a different realistic text (~2 KB) sharing common words. */
function writerBodies(workspaceId: string, spaceIds: string[], parentIds: string[]): string[] {
  return parentIds.map((parentId, i) => {
    const { doc } = realisticDocument(randomSource(1000 + i), 6);
    return JSON.stringify({ workspaceId, spaceId: spaceIds[i], parentId, title: `Meeting notes ${i + 1}`, content: doc });
  });
}

/**
 * Issue 11's write bench: `WRITERS` concurrent writers creating pages through HTTP with an API key, (a) all in one
 * space (each under its own parent page) and (b) each in its own space, in interleaved rounds of the same run. The
 * ratio a/b says how much creates in one space serialise on what they share (search statistics, the tree lock).
 * The pages accumulate over the rounds, in both cases alike.
 */
export const pageWrites: Scenario = {
  name: 'page-writes',
  description: `${WRITERS} writers creating pages through HTTP: all in one space vs one space each`,
  async run(target, load) {
    const s = await seedSpace(target, 'writes');
    const spaces = [s.spaceId];
    for (let i = 1; i < WRITERS; i++)
      spaces.push((await target.call('POST', '/api/v1/spaces', s.jwt, { workspaceId: s.workspaceId, name: `Space ${i + 1}` })).data.id);
    const parent = async (spaceId: string, i: number) =>
      (await target.call('POST', '/api/v1/pages', s.jwt, { workspaceId: s.workspaceId, spaceId, title: `Parent ${i + 1}`, markdown: 'Parent page.' })).data
        .id as string;
    const oneSpaceParents: string[] = [];
    const ownSpaceParents: string[] = [];
    for (let i = 0; i < WRITERS; i++) {
      oneSpaceParents.push(await parent(s.spaceId, i));
      ownSpaceParents.push(await parent(spaces[i], i));
    }
    const common = { url: `${target.appUrl}/api/v1/pages`, headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' } };
    const oneSpace: Writers = {
      ...common,
      label: `(a) ${WRITERS} writers, one space`,
      bodies: writerBodies(s.workspaceId, Array(WRITERS).fill(s.spaceId), oneSpaceParents),
    };
    const ownSpace: Writers = { ...common, label: `(b) ${WRITERS} writers, a space each`, bodies: writerBodies(s.workspaceId, spaces, ownSpaceParents) };
    const runs: Measurement[][] = [[], []];
    for (let round = 0; round < Math.max(1, load.rounds ?? 1); round++) {
      runs[0].push(await measureWriters(oneSpace, load));
      runs[1].push(await measureWriters(ownSpace, load));
    }
    const [a, b] = runs.map((list) => ({
      ...list[0],
      reqPerSec: median(list.map((m) => m.reqPerSec)),
      p50: median(list.map((m) => m.p50)),
      p99: median(list.map((m) => m.p99)),
      requests: list.reduce((sum, m) => sum + m.requests, 0),
      cpuPerRequest: median(list.map((m) => m.cpuPerRequest)),
    }));
    return { measurements: [a, b], ratios: [{ label: 'a/b (one space vs a space each)', value: a.reqPerSec / b.reqPerSec, atLeast: 0.8 }] };
  },
};
