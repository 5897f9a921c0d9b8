import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { type VectorStorage, vectorValue } from '../knowledge/knowledge.storage.js';

export const MEMORY_COLUMNS = ['id', 'workspaceId', 'content', 'tags', 'source', 'createdBy', 'createdAt', 'updatedAt', 'embeddingModel'] as const;

export interface NewMemory {
  id: string;
  workspaceId: string;
  content: string;
  tags: string[];
  source: string | null;
  createdBy: string;
  createdAt: Date;
}

export const memoryRepo = {
  insert(db: Db, storage: VectorStorage, m: NewMemory, vector: { v: number[]; model: string } | null) {
    return db
      .insertInto('memories')
      .values({
        ...m,
        tags: m.tags,
        updatedAt: m.createdAt,
        // Tags weigh like a title: a memory tagged "deploy" is about deploying.
        searchVector: sql`setweight(to_tsvector('english', ${m.tags.join(' ')}), 'A') || setweight(to_tsvector('english', ${m.content}), 'B')`,
        embedding: vector ? vectorValue(storage, vector.v) : null,
        embeddingModel: vector?.model ?? null,
        embeddingDims: vector?.v.length ?? null,
      })
      .returning(MEMORY_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  list(db: Db, workspaceId: string, opts: { tag?: string; limit: number; offset: number }) {
    let q = db.selectFrom('memories').where('workspaceId', '=', workspaceId);
    if (opts.tag) q = q.where(sql<boolean>`${opts.tag} = any(tags)`);
    return Promise.all([
      q.select(MEMORY_COLUMNS).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
  },

  findRef(db: Db, id: string) {
    return db.selectFrom('memories').select(['id', 'workspaceId']).where('id', '=', id).executeTakeFirst();
  },

  delete(db: Db, workspaceId: string, id: string) {
    return db.deleteFrom('memories').where('workspaceId', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  },
};
