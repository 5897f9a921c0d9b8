import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';
import { pageOpenToSql } from '../pages/page-access.sql.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';
import type { Passage } from './knowledge.chunk.js';
import { similaritySql, type VectorStorage, vectorValue } from './knowledge.storage.js';

/** A page whose passages are missing, older than the page, or embedded by another model. */
export interface StalePage {
  id: string;
  workspaceId: string;
  title: string;
  content: unknown;
  updatedAt: Date;
}

/** A ranked candidate of one retriever. */
export interface Candidate {
  type: 'page' | 'memory';
  id: string;
  score: number;
}

/** Who searches what: the caller's readable spaces and open pages are applied inside the SQL. */
export interface Scope {
  workspaceId: string;
  userId: string;
  pages: boolean;
  memories: boolean;
  /** Memories carrying any of these tags (only memories are searched when set). */
  tags?: string[];
}

/**
 * An OR of the query's words as PostgreSQL analyses them (`english`: stemmed, stop words dropped): agents ask
 * questions, and a passage that answers rarely contains every word of one. Null when no word is left.
 */
const orQuery = (query: string) => sql`nullif(replace(plainto_tsquery('english', ${query})::text, '&', '|'), '')::tsquery`;

export const knowledgeRepo = {
  stalePages(db: Db, model: string | null, opts: { workspaceId?: string; limit: number }) {
    let q = db
      .selectFrom('pages as p')
      .leftJoin('knowledgePages as k', 'k.pageId', 'p.id')
      .select(['p.id', 'p.workspaceId', 'p.title', 'p.content', 'p.updatedAt'])
      .where('p.deletedAt', 'is', null)
      .where((eb) =>
        eb.or([eb('k.pageId', 'is', null), eb('k.pageUpdatedAt', '<>', eb.ref('p.updatedAt')), sql<boolean>`k.embedding_model is distinct from ${model}`]),
      );
    if (opts.workspaceId) q = q.where('p.workspaceId', '=', opts.workspaceId);
    return q.orderBy('p.updatedAt').limit(opts.limit).execute() as Promise<StalePage[]>;
  },

  /**
   * Replaces a page's passages and records what was indexed. `vectors[i]` belongs to `passages[i]` (null: not
   * embedded, found by words only until the next run embeds it).
   */
  async replacePassages(
    db: Db,
    storage: VectorStorage,
    page: StalePage,
    passages: Passage[],
    vectors: Array<number[] | null>,
    model: string | null,
    now: Date,
  ) {
    await db.deleteFrom('knowledgePassages').where('pageId', '=', page.id).execute();
    if (passages.length)
      await db
        .insertInto('knowledgePassages')
        .values(
          passages.map((p, i) => {
            const v = vectors[i];
            return {
              id: newId(),
              workspaceId: page.workspaceId,
              pageId: page.id,
              ordinal: i,
              headingPath: p.headingPath,
              content: p.content,
              wordCount: p.wordCount,
              // The passage's own words weigh most; its headings, then the page title (shared by all its passages) give context.
              searchVector: sql`setweight(to_tsvector('english', ${page.title}), 'C') || setweight(to_tsvector('english', ${p.headingPath}), 'B') || setweight(to_tsvector('english', ${p.content}), 'A')`,
              embedding: v ? vectorValue(storage, v) : null,
              embeddingModel: v ? model : null,
              embeddingDims: v ? v.length : null,
            };
          }),
        )
        .execute();
    const allEmbedded = vectors.every((v) => v !== null);
    await db
      .insertInto('knowledgePages')
      .values({
        pageId: page.id,
        workspaceId: page.workspaceId,
        pageUpdatedAt: page.updatedAt,
        embeddingModel: allEmbedded ? model : null,
        passageCount: passages.length,
        indexedAt: now,
      })
      .onConflict((oc) =>
        oc.column('pageId').doUpdateSet((eb) => ({
          pageUpdatedAt: eb.ref('excluded.pageUpdatedAt'),
          embeddingModel: eb.ref('excluded.embeddingModel'),
          passageCount: eb.ref('excluded.passageCount'),
          indexedAt: eb.ref('excluded.indexedAt'),
        })),
      )
      .execute();
  },

  /** Memories not embedded by `model` (new ones whose embedding failed, or all of them after a model change). */
  staleMemories(db: Db, model: string, limit: number) {
    return db
      .selectFrom('memories')
      .select(['id', 'workspaceId', 'content', 'tags'])
      .where(sql<boolean>`embedding_model is distinct from ${model}`)
      .orderBy('createdAt')
      .limit(limit)
      .execute();
  },

  setMemoryEmbedding(db: Db, storage: VectorStorage, workspaceId: string, id: string, v: number[], model: string) {
    return db
      .updateTable('memories')
      .set({ embedding: vectorValue(storage, v), embeddingModel: model, embeddingDims: v.length })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Full-text candidates, best first: `ts_rank` of an OR query, length-normalized. */
  async lexical(db: Db, scope: Scope, query: string, limit: number): Promise<Candidate[]> {
    const parts = [];
    if (scope.pages && !scope.tags)
      parts.push(sql`select 'page' as type, kp.id, ts_rank(kp.search_vector, q.q, 1) as score
        from knowledge_passages kp join pages p on p.id = kp.page_id, q
        where kp.workspace_id = ${scope.workspaceId} and p.workspace_id = ${scope.workspaceId} and p.deleted_at is null
          and p.space_id in ${readableSpaceIds(db, scope.workspaceId, scope.userId)} and ${openPage(scope)} and kp.search_vector @@ q.q`);
    if (scope.memories)
      parts.push(sql`select 'memory' as type, m.id, ts_rank(m.search_vector, q.q, 1) as score
        from memories m, q
        where m.workspace_id = ${scope.workspaceId} and m.search_vector @@ q.q ${tagFilter(scope.tags)}`);
    if (!parts.length) return [];
    const { rows } = await sql<Candidate>`with q as (select ${orQuery(query)} as q)
      select type, id, score from (${sql.join(parts, sql` union all `)}) c order by score desc, id limit ${limit}`.execute(db);
    return rows;
  },

  /** Vector candidates, best first: cosine similarity to the query among vectors of `model` (an exact scan). */
  async vector(db: Db, storage: VectorStorage, scope: Scope, query: number[], model: string, limit: number): Promise<Candidate[]> {
    const parts = [];
    if (scope.pages && !scope.tags)
      parts.push(sql`select 'page' as type, kp.id, ${similaritySql(storage, 'kp.embedding', query)} as score
        from knowledge_passages kp join pages p on p.id = kp.page_id
        where kp.workspace_id = ${scope.workspaceId} and p.workspace_id = ${scope.workspaceId} and p.deleted_at is null
          and p.space_id in ${readableSpaceIds(db, scope.workspaceId, scope.userId)} and ${openPage(scope)}
          and kp.embedding_model = ${model} and kp.embedding_dims = ${query.length}`);
    if (scope.memories)
      parts.push(sql`select 'memory' as type, m.id, ${similaritySql(storage, 'm.embedding', query)} as score
        from memories m
        where m.workspace_id = ${scope.workspaceId} and m.embedding_model = ${model} and m.embedding_dims = ${query.length} ${tagFilter(scope.tags)}`);
    if (!parts.length) return [];
    const { rows } = await sql<Candidate>`select type, id, score from (${sql.join(parts, sql` union all `)}) c order by score desc, id limit ${limit}`.execute(
      db,
    );
    return rows;
  },

  /**
   * The pages whose passages are nearest to `query` (`model`'s vectors), best passage per page, among the live pages
   * the caller may read (in `spaceId` only, when given): the vector list of a search's hybrid ranking.
   */
  async nearestPages(
    db: Db,
    storage: VectorStorage,
    scope: Pick<Scope, 'workspaceId' | 'userId'> & { spaceId?: string },
    query: number[],
    model: string,
    limit: number,
  ): Promise<{ type: 'page'; id: string; similarity: number }[]> {
    const { rows } = await sql<{ type: 'page'; id: string; similarity: number }>`
      select 'page' as type, kp.page_id as id, max(${similaritySql(storage, 'kp.embedding', query)})::float8 as similarity
      from knowledge_passages kp join pages p on p.id = kp.page_id
      where kp.workspace_id = ${scope.workspaceId} and p.workspace_id = ${scope.workspaceId} and p.deleted_at is null
        and p.space_id in ${readableSpaceIds(db, scope.workspaceId, scope.userId)}${scope.spaceId ? sql` and p.space_id = ${scope.spaceId}` : sql``}
        and ${openPage(scope)} and kp.embedding_model = ${model} and kp.embedding_dims = ${query.length}
      group by kp.page_id order by similarity desc, kp.page_id limit ${limit}`.execute(db);
    return rows.map((r) => ({ ...r, similarity: Number(r.similarity) }));
  },

  /** The passages named, still readable by the caller (the filters again: nothing leaks between the two queries). */
  passages(db: Db, scope: Scope, ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('knowledgePassages as kp')
      .innerJoin('pages as p', 'p.id', 'kp.pageId')
      .select(['kp.id', 'kp.pageId', 'kp.headingPath', 'kp.content', 'p.title', 'p.spaceId'])
      .where('kp.id', 'in', ids)
      .where('kp.workspaceId', '=', scope.workspaceId)
      .where('p.deletedAt', 'is', null)
      .where('p.spaceId', 'in', readableSpaceIds(db, scope.workspaceId, scope.userId))
      .where(openPage(scope))
      .execute();
  },

  memories(db: Db, workspaceId: string, ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('memories')
      .select(['id', 'content', 'tags', 'source', 'createdAt'])
      .where('workspaceId', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
  },
};

/** A passage's page is not closed to the searcher by a page restriction (the space filter is applied beside it). */
const openPage = (scope: Pick<Scope, 'workspaceId' | 'userId'>) => pageOpenToSql(sql.ref('p.id'), scope.workspaceId, scope.userId);

const tagFilter = (tags: string[] | undefined) => (tags?.length ? sql`and m.tags && ${tags}::text[]` : sql``);
