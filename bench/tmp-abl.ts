import Fastify from 'fastify';
import { pino } from 'pino';
import { getWorkspace } from '../src/areas/workspaces/workspaces.service.js';
import { workspacesRepo } from '../src/areas/workspaces/workspaces.repo.js';
import { startTarget } from './lib/target.js';
import { seedWorkspace } from './scenarios/workspace-read.js';
const target = await startTarget(process.env.DATABASE_URL ? 'postgres' : 'pglite');
const { key, workspaceId, userId } = await seedWorkspace(target);
const app = target.app;
const db = target.database.db;
const bare = Fastify({ logger: false });
bare.get<{ Params: { id: string } }>('/workspaces/:id', async (req) => ({ data: await db.selectFrom('workspaces').selectAll().where('id', '=', req.params.id).executeTakeFirst() }));
bare.get<{ Params: { id: string } }>('/svc/:id', async (req) => ({ data: await getWorkspace({ db, actor: { userId, via: 'api_key', apiKeyId: 'x' }, log: pino({ level: 'silent' }), now: () => new Date(), env: {} as any }, req.params.id) }));
bare.get('/hello', async () => ({ hello: 'world' }));
const auth = { authorization: `Bearer ${key}` };
async function time(n: number, fn: () => unknown) {
  for (let i = 0; i < 300; i++) await fn();
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const cpu = process.cpuUsage(c);
  return (cpu.user + cpu.system) / n;
}
const cases: Array<[string, () => unknown]> = [
  ['app GET workspace (api key)', () => app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}`, headers: auth })],
  ['app 404 route (api key)', () => app.inject({ method: 'GET', url: `/api/v1/nope`, headers: auth })],
  ['bare svc getWorkspace', () => bare.inject({ method: 'GET', url: `/svc/${workspaceId}` })],
  ['bare pk', () => bare.inject({ method: 'GET', url: `/workspaces/${workspaceId}` })],
  ['bare hello', () => bare.inject({ method: 'GET', url: `/hello` })],
  ['findForUser direct', () => workspacesRepo.findForUser(db, workspaceId, userId)],
  ['pk direct', () => db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst()],
];
const results = new Map<string, number[]>();
for (let r = 0; r < 4; r++) for (const [l, f] of cases) { const v = await time(1500, f); results.set(l, [...(results.get(l) ?? []), v]); }
for (const [l, v] of results) { const s = [...v].sort((a, b) => a - b); console.log(l.padEnd(32), s.map((x) => x.toFixed(0).padStart(6)).join(' '), ' median', ((s[1] + s[2]) / 2).toFixed(0)); }
await target.close();
