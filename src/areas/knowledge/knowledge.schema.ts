import { z } from 'zod';
import { envelope, Id, Limit } from '../../schema.js';

export const SEARCH_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const KnowledgeQueryText = z
  .string()
  .max(2000)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .describe('A question or keywords, in natural language');

export const Mode = z
  .enum(SEARCH_MODES)
  .default('hybrid')
  .describe('hybrid (default: full-text rank fused with vector similarity), lexical (words only) or vector (meaning only)');

export const KnowledgeSearchQuery = z.object({
  workspaceId: Id,
  query: KnowledgeQueryText,
  limit: Limit(10, 50),
  mode: Mode,
});

export const KnowledgeResult = z.object({
  id: z.string().describe('The passage id (type page) or the memory id (type memory)'),
  type: z.enum(['page', 'memory']),
  title: z.string().describe('The page title, or the first line of the memory'),
  content: z.string().describe('The passage (Markdown) or the whole memory'),
  similarity: z.number().min(0).max(1).describe('Fused relevance, 0..1, best first'),
  pageId: z.string().optional(),
  spaceId: z.string().optional(),
  headingPath: z.string().optional().describe('The headings above the passage, joined by " › "'),
  tags: z.array(z.string()).optional(),
  source: z.string().nullable().optional(),
});

export const KnowledgeSearchOutput = z.object({ results: z.array(KnowledgeResult) });
export const KnowledgeSearchResult = envelope(KnowledgeSearchOutput);
