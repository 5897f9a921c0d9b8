import { createHash, randomUUID } from 'node:crypto';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export const sha = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** POST /api/local-sync/<path> as a user with the workspace header. */
export function syncClient(t: TestApp, user: TestUser, workspaceId: string) {
  return (path: string, body?: unknown, extraHeaders: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: `/api/local-sync/${path}`, token: user.token, body, headers: { 'x-workspace-id': workspaceId, ...extraHeaders } });
}
export type SyncClient = ReturnType<typeof syncClient>;

/** An upsert item of text content (hash computed unless given). */
export function upsert(relativePath: string, content: string, baseHash: string | null = null, extra: Record<string, unknown> = {}) {
  return { operationId: randomUUID(), relativePath, content, contentType: 'text', contentHash: sha(content), baseHash, ...extra };
}

export function remove(relativePath: string, baseHash: string | null) {
  return { operationId: randomUUID(), relativePath, isDelete: true, baseHash };
}

/** Registers a connector and creates a source; returns their ids. */
export async function setupSource(sync: SyncClient, mode = 'bidirectional', extra: Record<string, unknown> = {}) {
  const c = await sync('connectors/register', { name: 'laptop', platform: 'linux', version: '1.0.0' });
  if (c.status !== 201) throw new Error(`register: ${c.status} ${JSON.stringify(c.body)}`);
  const s = await sync('sources', { name: `src-${randomUUID().slice(0, 8)}`, mode, connectorId: c.body.connectorId, ...extra });
  if (s.status !== 201) throw new Error(`source: ${s.status} ${JSON.stringify(s.body)}`);
  return { connectorId: c.body.connectorId as string, sourceId: s.body.sourceId as string };
}

export async function push(sync: SyncClient, sourceId: string, items: unknown[], connectorId?: string) {
  const res = await sync('sources/push-batch', { sourceId, items, ...(connectorId ? { connectorId } : {}) });
  if (res.status !== 200) throw new Error(`push: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results as {
    operationId: string;
    relativePath: string;
    status: string;
    contentHash: string | null;
    conflictId: string | null;
    serviceHash: string | null;
    error: any;
  }[];
}
