import { randomBytes, randomUUID } from 'node:crypto';
import { oauthTokenKey } from '../../src/areas/oauth/oauth.adapter.js';
import { measureAll } from '../lib/measure.js';
import type { Scenario } from './types.js';
import { seedWorkspace } from './workspace-read.js';

/**
 * Issue 31: what an app's OAuth access token costs against an API key on the same read. An access token and its
 * connection are written straight into the provider's store (the consent flow is a browser's work, measured by
 * nothing here): the rows a consent makes, so the request path is the one an app's token takes (lookup by hash
 * with its connection, cached; the workspace limit; the `write`/`admin` caps). Both are measured interleaved.
 */
export const oauthToken: Scenario = {
  name: 'oauth-token',
  description: 'GET /api/v1/workspaces/:id with an OAuth access token vs the same with an API key',
  async run(target, load) {
    const { key, workspaceId, userId } = await seedWorkspace(target);
    const db = target.database.db;
    const token = randomBytes(32).toString('base64url');
    const grantId = randomUUID();
    await db
      .insertInto('oauthConnections')
      .values({ id: grantId, userId, workspaceId, clientId: 'bench-client', clientName: 'Bench app', registration: 'dynamic', scopes: ['read', 'write'] })
      .execute();
    await db
      .insertInto('oauthRecords')
      .values({
        model: 'AccessToken',
        id: oauthTokenKey(token),
        payload: JSON.stringify({ accountId: userId, clientId: 'bench-client', grantId, scope: 'read write', kind: 'AccessToken' }),
        grantId,
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .execute();
    const url = `${target.appUrl}/api/v1/workspaces/${workspaceId}`;
    const [oauth, apiKey] = await measureAll(
      [
        { label: '(a) GET /api/v1/workspaces/:id, OAuth access token', url, headers: { authorization: `Bearer ${token}` } },
        { label: '(b) the same, API key', url, headers: { authorization: `Bearer ${key}` } },
      ],
      load,
    );
    return {
      measurements: [oauth, apiKey],
      ratios: [
        { label: 'a/b (OAuth token vs API key, req/s)', value: oauth.reqPerSec / apiKey.reqPerSec, atLeast: 0.9 },
        { label: 'a/b by server CPU per request (cpu b / cpu a)', value: apiKey.cpuPerRequest / oauth.cpuPerRequest },
      ],
    };
  },
};
