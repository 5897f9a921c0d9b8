import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { embedderFor } from '../../src/embeddings/index.js';
import { runIndexer } from '../../src/areas/knowledge/knowledge.indexer.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export async function createSpace(t: TestApp, user: TestUser, workspaceId: string, name: string, visibility: 'public' | 'private') {
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: user.token, body: { workspaceId, name, visibility } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

export async function createPage(t: TestApp, user: TestUser, workspaceId: string, spaceId: string, title: string, markdown: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: user.token, body: { workspaceId, spaceId, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

/** Settings for one indexer run that goes on until nothing is stale (the job's own run is bounded). */
export const unbounded = (config: Config): Config => ({ ...config, KNOWLEDGE_INDEX_BUDGET_MS: 600_000, KNOWLEDGE_INDEX_MAX_PAGES: 1_000_000 });

/** Runs the background indexer until every page is indexed, as successive runs of the recurring job do. */
export const indexNow = (t: TestApp) => runIndexer(t.database.db, embedderFor(t.config), unbounded(t.config));

export function knowledgeSearch(t: TestApp, user: TestUser, workspaceId: string, query: string, extra: Record<string, string> = {}) {
  return t.request({ url: '/api/v1/knowledge/search', token: user.token, query: { workspaceId, query, ...extra } });
}

export function callTool(t: TestApp, user: TestUser, name: string, args: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: user.token, body: { name, arguments: args } });
}
