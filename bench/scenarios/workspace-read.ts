import type { Db } from '../../src/db/index.js';
import { measureAll } from '../lib/measure.js';
import { startBare, type Target } from '../lib/target.js';
import type { Scenario } from './types.js';

/** A user, their API key and a workspace they administer, made through the API. */
export async function seedWorkspace(target: Target) {
  const signup = await target.call('POST', '/api/v1/auth/signup', undefined, { email: 'bench@example.com', name: 'Bench', password: 'bench-password' });
  const jwt: string = signup.data.token;
  const key: string = (await target.call('POST', '/api/v1/api-keys', jwt, { name: 'bench' })).data.key;
  const workspaceId: string = (await target.call('POST', '/api/v1/workspaces', jwt, { name: 'Bench', hostname: 'bench' })).data.id;
  return { key, workspaceId, userId: signup.data.user.id as string };
}

/** The baselines: a bare Fastify instance with a primary-key select through the same Kysely db, and a hello route. */
export function startWorkspaceBaselines(db: Db) {
  return startBare((app) => {
    app.get('/hello', async () => ({ hello: 'world' }));
    app.get<{ Params: { id: string } }>('/workspaces/:id', async (req, reply) => {
      const row = await db.selectFrom('workspaces').selectAll().where('id', '=', req.params.id).executeTakeFirst();
      if (!row) return reply.code(404).send({ error: 'not found' });
      return { data: row };
    });
  });
}

/**
 * Issue 2's benchmark: `GET /api/v1/workspaces/:id` with an API key (auth, rate limit, membership check, validation,
 * serialization), against (b) a bare Fastify route doing one primary-key select on the same Kysely db — the floor of
 * any database-backed route — and (c) a bare hello route. Target: a/b ≥ 0.7.
 */
export const workspaceRead: Scenario = {
  name: 'workspace-read',
  description: 'GET /api/v1/workspaces/:id with an API key vs a bare primary-key select vs a bare hello route',
  async run(target, load) {
    const { key, workspaceId } = await seedWorkspace(target);
    const bare = await startWorkspaceBaselines(target.database.db);
    try {
      const [api, pk, hello] = await measureAll(
        [
          {
            label: '(a) GET /api/v1/workspaces/:id, API key',
            url: `${target.appUrl}/api/v1/workspaces/${workspaceId}`,
            headers: { authorization: `Bearer ${key}` },
          },
          { label: '(b) bare route, one primary-key select', url: `${bare.url}/workspaces/${workspaceId}` },
          { label: '(c) bare hello route', url: `${bare.url}/hello` },
        ],
        load,
      );
      return {
        measurements: [api, pk, hello],
        ratios: [
          { label: 'a/b (service vs primary-key select)', value: api.reqPerSec / pk.reqPerSec, atLeast: 0.7 },
          { label: 'a/c (service vs hello)', value: api.reqPerSec / hello.reqPerSec },
          // The same comparison in server CPU per request (b's cost / a's cost): what the ratio would be with the
          // machine to itself, since each route is CPU-bound in this process.
          { label: 'a/b by server CPU per request (cpu b / cpu a)', value: pk.cpuPerRequest / api.cpuPerRequest },
        ],
      };
    } finally {
      await bare.close();
    }
  },
};
