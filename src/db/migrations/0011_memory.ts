import { type Kysely, sql } from 'kysely';

/**
 * Memories and the knowledge index (passages of pages with their vectors, and what was indexed when).
 * Vectors are pgvector `vector` columns when the `vector` extension is installed (PGlite ships it; `migrateToLatest`
 * creates it where available), else `real[]` searched by an exact scan: Debian's PostgreSQL has no pgvector. The
 * column has no fixed dimension: each row records its model and dimension, and only vectors of the current model
 * are compared. The code reads the column's type at run time (`knowledge.storage.ts`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ has: boolean }>`select exists (select 1 from pg_extension where extname = 'vector') as has`.execute(db);
  await createMemoryTables(db, rows[0]?.has === true);
}

/** The tables, with `vector` columns or `real[]` ones (exported so a test can build the fallback on PGlite). */
export async function createMemoryTables(db: Kysely<unknown>, useVector: boolean): Promise<void> {
  const vectorType = useVector ? sql`vector` : sql`real[]`;
  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('source', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
    .addColumn('embedding', vectorType)
    .addColumn('embedding_model', 'text')
    .addColumn('embedding_dims', 'integer')
    .execute();
  await sql`create index memories_workspace_created on memories (workspace_id, created_at desc, id desc)`.execute(db);
  await sql`create index memories_tags on memories using gin (tags)`.execute(db);
  await sql`create index memories_search on memories using gin (search_vector)`.execute(db);

  await db.schema
    .createTable('knowledge_passages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('heading_path', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
    .addColumn('embedding', vectorType)
    .addColumn('embedding_model', 'text')
    .addColumn('embedding_dims', 'integer')
    .execute();
  await sql`create index knowledge_passages_page on knowledge_passages (page_id, ordinal)`.execute(db);
  await sql`create index knowledge_passages_workspace on knowledge_passages (workspace_id)`.execute(db);
  await sql`create index knowledge_passages_search on knowledge_passages using gin (search_vector)`.execute(db);

  await db.schema
    .createTable('knowledge_pages')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('embedding_model', 'text')
    .addColumn('passage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('indexed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index knowledge_pages_workspace on knowledge_pages (workspace_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('knowledge_pages').execute();
  await db.schema.dropTable('knowledge_passages').execute();
  await db.schema.dropTable('memories').execute();
}
