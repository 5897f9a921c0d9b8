import { z } from 'zod';
import { envelope, Id, Limit } from '../../schema.js';

export const DOC_TYPES = ['page', 'task'] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** `types=page&types=task` and `types=page,task` alike. */
const Types = z
  .union([z.string().max(100), z.array(z.string().max(100)).max(10)])
  .transform((v, ctx) => {
    const names = (Array.isArray(v) ? v : [v])
      .flatMap((x) => x.split(','))
      .map((x) => x.trim())
      .filter(Boolean);
    const bad = names.find((n) => !(DOC_TYPES as readonly string[]).includes(n));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `unknown type "${bad.slice(0, 20)}"; use page or task` });
    return names as DocType[];
  })
  .optional();

const QueryText = z
  .string()
  .max(2000)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .describe(
    'What to look for: words or a question; "quoted phrase" required (in a question of 8+ words, quotes only quote); -word excluded; the last word may be unfinished',
  );

export const SearchQuery = z.object({
  query: QueryText,
  workspaceId: Id,
  spaceId: Id.optional().describe('Only this space'),
  types: Types.describe('page, task, or both (default): `types=page&types=task` or `types=page,task`'),
  limit: Limit(20, 100),
});

export const SuggestQuery = z.object({
  query: z
    .string()
    .max(200)
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .describe('What has been typed so far'),
  workspaceId: Id,
  limit: Limit(10, 50),
});

export const SearchResultSchema = z.object({
  type: z.enum(DOC_TYPES),
  id: z.string(),
  title: z.string(),
  snippet: z.string().describe('HTML: the best passage, escaped, with matches in <mark>…</mark>'),
  score: z.number(),
  spaceId: z.string().nullable(),
  updatedAt: z.string(),
  icon: z.string().nullable().describe("The page's icon (an emoji); null for tasks and pages without one"),
});

export const Suggestion = z.object({
  text: z.string(),
  type: z.enum(['keyword', 'page']),
  id: z.string().optional().describe('The page, for page suggestions'),
  icon: z.string().nullable().optional().describe("The page's icon (an emoji), for page suggestions"),
});

export const SearchResults = envelope(z.array(SearchResultSchema));
export const Suggestions = envelope(z.array(Suggestion));
