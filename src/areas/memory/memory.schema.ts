import { z } from 'zod';
import { envelope, Id, Limit, ListMeta, PageNumber } from '../../schema.js';
import { KnowledgeQueryText, KnowledgeResult, Mode } from '../knowledge/knowledge.schema.js';

export const MAX_TAGS = 20;

/** A tag: trimmed, lower-cased; 1–64 characters. */
export const Tag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .refine((s) => !s.includes(','), 'must not contain a comma')
  .describe('A label, lower-cased (e.g. "deploy", "customer:acme")');

export const MemoryContent = z
  .string()
  .max(10_000)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .describe('The note to remember: a fact, a decision, a preference (up to 10,000 characters)');

export const MemoryIngestBody = z.object({
  workspaceId: Id,
  content: MemoryContent,
  tags: z.array(Tag).max(MAX_TAGS).default([]).describe(`Labels to find it by (up to ${MAX_TAGS}; duplicates dropped)`),
  source: z.string().trim().max(500).optional().describe('Where it came from: a URL, a conversation, a tool'),
});

export const MemoryListQuery = z.object({
  workspaceId: Id,
  tag: Tag.optional().describe('Only memories carrying this tag'),
  page: PageNumber,
  limit: Limit(20, 100),
});

export const MemoryQueryInput = z.object({
  workspaceId: Id,
  query: KnowledgeQueryText,
  tags: z.array(Tag).max(MAX_TAGS).optional().describe('Only memories carrying any of these tags'),
  limit: Limit(10, 50),
  mode: Mode,
});

export const MemoryIdParams = z.object({ id: Id });
export const MemoryDeleteQuery = z.object({ workspaceId: Id.optional().describe('When given, the memory must belong to it') });
export const MemoryDeleteInput = z.object({ workspaceId: Id, id: Id.describe('The memory to delete') });

export const Memory = z.object({
  id: z.string(),
  workspaceId: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  source: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  embeddingModel: z.string().nullable().describe('The model of its vector; null until embedded (it is found by words meanwhile)'),
});

export const MemoryResult = envelope(Memory);
export const MemoryListResult = z.object({ data: z.array(Memory), meta: ListMeta });
export const MemoryQueryOutput = z.object({ results: z.array(KnowledgeResult) });
