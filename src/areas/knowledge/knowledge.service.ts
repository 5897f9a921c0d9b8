import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { type Embedder, embedderFor } from '../../embeddings/index.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { fuse } from './knowledge.fusion.js';
import { indexPages } from './knowledge.indexer.js';
import { type Candidate, knowledgeRepo, type Scope } from './knowledge.repo.js';
import type { KnowledgeResult, KnowledgeSearchQuery, SearchMode } from './knowledge.schema.js';
import { vectorStorage } from './knowledge.storage.js';

type Result = z.infer<typeof KnowledgeResult>;

/** How many candidates each retriever gives the fusion, at least. */
const CANDIDATES = 50;

export const embedderOf = (ctx: Ctx): Embedder => embedderFor(ctx.env.config);

/**
 * Hybrid retrieval over a scope: full-text candidates and vector candidates, fused by reciprocal rank, then read
 * back (with the access filters again). Without a query vector (the embedder failed) it is full-text only.
 */
export async function retrieve(
  db: Db,
  embedder: Embedder,
  scope: Scope,
  query: string,
  limit: number,
  mode: SearchMode,
  log?: Ctx['log'],
  /** The query's vector when the caller started it already (see knowledgeSearch). */
  queryVector?: Promise<number[]>,
): Promise<Result[]> {
  const n = Math.max(CANDIDATES, limit * 3);
  // The vector list goes first: on a tie in fused score, meaning decides (words often tie on a shared page title).
  const lists: Candidate[][] = [];
  if (mode !== 'lexical') {
    let vector: number[] | null = null;
    try {
      vector = await (queryVector ?? embedQuery(embedder, query));
    } catch (err) {
      log?.warn({ err }, 'embedding the query failed; full-text results only');
      if (mode === 'vector') throw err;
    }
    if (vector) lists.push(await knowledgeRepo.vector(db, await vectorStorage(db), scope, vector, embedder.model, n));
  }
  if (mode !== 'vector') lists.push(await knowledgeRepo.lexical(db, scope, query, n));
  const fused = fuse(lists, limit);
  const [passages, memories] = await Promise.all([
    knowledgeRepo.passages(
      db,
      scope,
      fused.filter((f) => f.type === 'page').map((f) => f.id),
    ),
    knowledgeRepo.memories(
      db,
      scope.workspaceId,
      fused.filter((f) => f.type === 'memory').map((f) => f.id),
    ),
  ]);
  const byId = new Map<string, Result>();
  for (const p of passages)
    byId.set(`page:${p.id}`, {
      id: p.id,
      type: 'page',
      title: p.title,
      content: p.content,
      similarity: 0,
      pageId: p.pageId,
      spaceId: p.spaceId,
      headingPath: p.headingPath,
    });
  for (const m of memories)
    byId.set(`memory:${m.id}`, { id: m.id, type: 'memory', title: memoryTitle(m.content), content: m.content, similarity: 0, tags: m.tags, source: m.source });
  return fused.flatMap((f) => {
    const r = byId.get(`${f.type}:${f.id}`);
    return r ? [{ ...r, similarity: f.similarity }] : [];
  });
}

/**
 * The pages nearest in meaning to `vector` (their best passage each), among those the caller may read: what a
 * search's hybrid ranking fuses with full text (areas/search/search.hybrid).
 */
export async function nearestPages(db: Db, scope: { workspaceId: string; userId: string; spaceId?: string }, vector: number[], model: string, limit: number) {
  return knowledgeRepo.nearestPages(db, await vectorStorage(db), scope, vector, model, limit);
}

function embedQuery(embedder: Embedder, query: string): Promise<number[]> {
  return embedder.embed([query]).then(([vector]) => vector);
}

/** A memory's title: its first line, up to 80 characters. */
export function memoryTitle(content: string): string {
  const line = content.trim().split('\n')[0].trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * `knowledge_search`: passages of the pages the caller can read (trashed pages excluded) and the workspace's
 * memories. Pages changed since the indexer last ran are indexed first, a few at a time (the background job does
 * the rest), so a page just written is found at once.
 */
export async function knowledgeSearch(ctx: Ctx, input: z.infer<typeof KnowledgeSearchQuery>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const embedder = embedderOf(ctx);
  // The query's vector (interactive lane) is computed while the catch-up (background lane) runs, not after it.
  const queryVector = input.mode === 'lexical' ? undefined : embedQuery(embedder, input.query);
  queryVector?.catch(() => {}); // retrieve reports a failure; this only keeps it from being unhandled meanwhile
  await waitAtMost(ctx.env.config.KNOWLEDGE_CATCHUP_WAIT_MS, catchUp(ctx, embedder, input.workspaceId));
  const scope: Scope = { workspaceId: input.workspaceId, userId: actor.userId, pages: true, memories: true };
  return { results: await retrieve(ctx.db, embedder, scope, input.query, input.limit, input.mode, ctx.log, queryVector) };
}

/**
 * Waits for `work` (which never rejects) up to `ms`: a search answers from what is indexed rather than wait long for
 * a slow catch-up, which goes on.
 */
async function waitAtMost(ms: number, work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The catch-up running for a workspace of a database in this process: concurrent searches of a workspace share one. */
const catchingUp = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * Indexes a few stale pages of the workspace before a search. Searches that arrive while one runs wait for that one
 * instead of each indexing the same pages again (a burst of searches would otherwise queue one embedding batch
 * each on the CPU pool).
 */
function catchUp(ctx: Ctx, embedder: Embedder, workspaceId: string): Promise<void> {
  const max = ctx.env.config.KNOWLEDGE_CATCHUP_PAGES;
  if (max <= 0 || !embedder.available()) return Promise.resolve();
  const key = `${embedder.model}\n${workspaceId}`;
  const ofDb = catchingUp.get(ctx.db) ?? new Map<string, Promise<void>>();
  catchingUp.set(ctx.db, ofDb);
  const running = ofDb.get(key);
  if (running) return running;
  const started = (async () => {
    const stale = await knowledgeRepo.stalePages(ctx.db, embedder.model, { workspaceId, limit: max });
    // Behind the query vectors of other searches: a search waits at most KNOWLEDGE_CATCHUP_WAIT_MS for it, and this
    // work must never hold up a query vector (under load that is where a search's p99 came from).
    if (stale.length) await indexPages(ctx.db, embedder, ctx.env.config, stale, { log: ctx.log, priority: 'background' });
  })()
    .catch((err) => ctx.log.warn({ err }, 'knowledge catch-up indexing failed; the background job retries'))
    .finally(() => ofDb.delete(key));
  ofDb.set(key, started);
  return started;
}
