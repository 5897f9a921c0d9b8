import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { vectorLiteral } from '../../embeddings/index.js';

/**
 * How vectors are stored, read from the column type migration 0011 chose: pgvector's `vector` (PGlite, or a server
 * with the extension) or `real[]` (a server without it), compared by an exact scan either way.
 */
export type VectorStorage = 'pgvector' | 'array';

const known = new WeakMap<Db, Promise<VectorStorage>>();

/** The storage of this database (asked once per database handle). Pass the root handle, not a transaction. */
export function vectorStorage(db: Db): Promise<VectorStorage> {
  let found = known.get(db);
  if (!found) {
    found = sql<{ udtName: string }>`select udt_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'knowledge_passages' and column_name = 'embedding'`
      .execute(db)
      .then((r) => (r.rows[0]?.udtName === 'vector' ? 'pgvector' : 'array') as VectorStorage);
    found.catch(() => known.delete(db));
    known.set(db, found);
  }
  return found;
}

/** Forgets what `vectorStorage` learnt (after a test rebuilds the tables). */
export function forgetVectorStorage(db: Db) {
  known.delete(db);
}

/** A vector as a value for the column. */
export function vectorValue(storage: VectorStorage, v: number[]): RawBuilder<unknown> {
  return storage === 'pgvector' ? sql`${vectorLiteral(v)}::vector` : sql`${v.map((x) => Math.fround(x))}::real[]`;
}

/**
 * Cosine similarity of a stored vector (a column reference) to `query`: stored and query vectors are unit length,
 * so on `real[]` it is their dot product, summed in SQL (an exact scan); on pgvector, `1 - cosine distance`.
 */
export function similaritySql(storage: VectorStorage, column: string, query: number[]): RawBuilder<number> {
  return storage === 'pgvector'
    ? sql<number>`(1 - (${sql.ref(column)} <=> ${vectorLiteral(query)}::vector))`
    : sql<number>`(select sum(u.a * u.b) from unnest(${sql.ref(column)}, ${query.map((x) => Math.fround(x))}::real[]) as u(a, b))`;
}
