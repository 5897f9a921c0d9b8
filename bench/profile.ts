import { Session } from 'node:inspector/promises';
import { fire } from './lib/measure.js';
import { type DatabaseKind, startTarget } from './lib/target.js';
import { seedWorkspace, startWorkspaceBaselines } from './scenarios/workspace-read.js';

/**
 * Where the service's time goes on the benchmark's hot path: loads one route of the workspace-read scenario with
 * autocannon (its own process) while the V8 profiler samples the server's thread, then prints CPU time per
 * request and self time grouped by package / source file.
 *   npx tsx bench/profile.ts [api|pk|hello]      (DATABASE_URL set: on a fresh PostgreSQL database)
 * PROFILE_FUNCTIONS=<text> also lists self time by function for the scripts whose URL contains <text> (`*`: all).
 */
const route = process.argv[2] ?? 'api';
if (!['api', 'pk', 'hello'].includes(route)) throw new Error('usage: bench/profile.ts [api|pk|hello]');
const seconds = Number(process.env.BENCH_DURATION ?? 8);
const kind: DatabaseKind = process.env.DATABASE_URL ? 'postgres' : 'pglite';

const target = await startTarget(kind);
const { key, workspaceId } = await seedWorkspace(target);
const bare = await startWorkspaceBaselines(target.database.db);
const url =
  route === 'api' ? `${target.appUrl}/api/v1/workspaces/${workspaceId}` : route === 'pk' ? `${bare.url}/workspaces/${workspaceId}` : `${bare.url}/hello`;
const load = (duration: number) => fire(url, { authorization: `Bearer ${key}` }, duration, 50);

await load(2); // warm-up
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const cpuBefore = process.cpuUsage();
const result = await load(seconds);
const cpu = process.cpuUsage(cpuBefore);
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const samples = profile.samples ?? [];
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const groups = new Map<string, number>();
for (const id of samples) {
  const frame = nodes.get(id)?.callFrame;
  const url = frame?.url ?? '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  const group =
    pkg ??
    (url.includes('/src/')
      ? `src/${url.split('/src/')[1]}`
      : url.startsWith('wasm')
        ? 'wasm (PGlite engine)'
        : url
          ? 'node internals'
          : frame?.functionName || '?');
  groups.set(group, (groups.get(group) ?? 0) + 1);
}
console.log(
  `[${kind}] ${route}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
    `${Math.round((cpu.user + cpu.system) / result.requests.total)} µs server CPU per request`,
);
for (const [group, n] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((n / samples.length) * 100).toFixed(1).padStart(6)}%  ${group}`);
if (process.env.PROFILE_FUNCTIONS) {
  // Self time by function, for the groups whose name contains PROFILE_FUNCTIONS ("*" for all).
  const filter = process.env.PROFILE_FUNCTIONS;
  const functions = new Map<string, number>();
  for (const id of samples) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame || (filter !== '*' && !frame.url.includes(filter))) continue;
    const where = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
    functions.set(where, (functions.get(where) ?? 0) + 1);
  }
  console.log(`\nself time by function (${filter}):`);
  for (const [where, n] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${((n / samples.length) * 100).toFixed(1).padStart(6)}%  ${where}`);
}
await bare.close();
await target.close();
