import { z } from 'zod';
import { defineTool, ItemList, READ } from './tool.js';

/** The arguments of `tool_search` and the body of `/mcp-standard/search_tools`. */
export const ToolSearchBody = z.object({
  query: z.string().trim().min(1).max(500).describe('What you want to do, in a few words: "move a page", "who is assigned", "trash"'),
  limit: z.number().int().min(1).max(50).default(10).describe('At most this many tools (default 10)'),
});

/** A tool's descriptor as `/mcp-standard` lists it. */
export const ToolOut = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.object({
    title: z.string(),
    readOnlyHint: z.boolean(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  }),
});
/** A tool found by `tool_search` and `/mcp-standard/search_tools`, with its BM25 score. */
export const ScoredToolOut = ToolOut.extend({ score: z.number() });

export const metaTools = [
  defineTool({
    name: 'tool_search',
    title: 'Find tools',
    category: 'tool',
    description:
      'Find the tools that fit a task, ranked by how well their name, description and category match `query`. Use it when you do not know which tool to call. Returns `{ items: [{ name, title, description, category, score, inputSchema }], total }`.',
    input: ToolSearchBody,
    output: ItemList(ScoredToolOut),
    annotations: READ,
    handler: async (ctx, a) => {
      const items = ctx.mcp.catalog.search(a.query, a.limit);
      return { items, total: items.length };
    },
  }),
];
