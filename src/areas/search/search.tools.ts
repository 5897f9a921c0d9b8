import { defineTool, ItemList, listOf, READ } from '../../mcp/tool.js';
import { SearchQuery, SearchResultSchema, Suggestion, SuggestQuery } from './search.schema.js';
import { search, suggest } from './search.service.js';

const category = 'search';

export const searchTools = [
  defineTool({
    name: 'search_query',
    title: 'Search pages and tasks',
    category,
    description:
      'Full-text search over the pages and tasks of a workspace you can read, best first. `query` takes words or a whole question, "quoted phrases" (required, except inside a question of 8+ words) and -excluded words; narrow with `spaceId` or `types` (page, task). Returns `{ items: [{ type, id, title, snippet, score, spaceId, updatedAt }], total }`; read a hit with `page_get` or `task_get`.',
    input: SearchQuery,
    output: ItemList(SearchResultSchema),
    annotations: READ,
    handler: async (ctx, a) => listOf(await search(ctx, a)),
    pages: (result) => result.items.filter((hit) => hit.type === 'page'),
  }),
  defineTool({
    name: 'search_suggest',
    title: 'Autocomplete',
    category,
    description:
      'Complete what has been typed: keywords from the workspace’s documents and matching page titles. Returns `{ items: [{ text, type, id? }], total }`.',
    input: SuggestQuery,
    output: ItemList(Suggestion),
    annotations: READ,
    handler: async (ctx, a) => listOf(await suggest(ctx, a)),
  }),
];
