import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

/**
 * A stored vector: pgvector's `vector` where the extension exists, else `real[]` (see migration 0011). Written with
 * SQL expressions (`storage.vectorSql`), never read back as a value (only compared in SQL).
 */
type VectorColumn = ColumnType<unknown, unknown, unknown>;
/** Written with `to_tsvector(...)` expressions when the row is inserted. */
type TsVectorColumn = ColumnType<unknown, unknown, unknown>;

export interface MemoryTable {
  id: string;
  workspaceId: string;
  content: string;
  /** Lower-case, distinct, in the order given. */
  tags: ColumnType<string[], string[], string[]>;
  source: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  searchVector: TsVectorColumn;
  embedding: VectorColumn | null;
  /** The model that made `embedding` (null: not embedded yet, the background job will). */
  embeddingModel: string | null;
  embeddingDims: number | null;
}

/** A passage of a page: a heading's section (or part of one), ~200–400 words. */
export interface KnowledgePassageTable {
  id: string;
  workspaceId: string;
  pageId: string;
  /** Order within the page, from 0. */
  ordinal: number;
  /** The headings above the passage, outermost first, joined by " › " ('' before the first heading). */
  headingPath: string;
  /** The passage as Markdown. */
  content: string;
  wordCount: number;
  searchVector: TsVectorColumn;
  embedding: VectorColumn | null;
  embeddingModel: string | null;
  embeddingDims: number | null;
}

/** What the indexer last did to a page: its passages are current while `pageUpdatedAt` and the model match. */
export interface KnowledgePageTable {
  pageId: string;
  workspaceId: string;
  pageUpdatedAt: Date;
  embeddingModel: string | null;
  passageCount: Generated<number>;
  indexedAt: Date;
}

export interface MemoryTables {
  memories: MemoryTable;
  knowledgePassages: KnowledgePassageTable;
  knowledgePages: KnowledgePageTable;
}
