import { defineTool, READ } from '../../mcp/tool.js';
import { KnowledgeSearchOutput, KnowledgeSearchQuery } from './knowledge.schema.js';
import { knowledgeSearch } from './knowledge.service.js';

export const knowledgeTools = [
  defineTool({
    name: 'knowledge_search',
    title: 'Search knowledge',
    category: 'knowledge',
    description:
      'Answer a question from what the workspace knows: passages of the pages you can read (split along headings, ~200–400 words, with their heading path) and the workspace’s memories, ranked by meaning and words combined (hybrid), best first. Use it before writing something that may already exist, or to ground an answer; read a whole page with `page_get` (by `pageId`). Returns `{ results: [{ id, type: "page"|"memory", title, content (the passage), similarity (0..1), pageId?, spaceId?, headingPath?, tags? }] }`.',
    input: KnowledgeSearchQuery,
    output: KnowledgeSearchOutput,
    annotations: READ,
    handler: (ctx, a) => knowledgeSearch(ctx, a),
    pages: (result) => result.results.flatMap((r) => (r.pageId ? [{ id: r.pageId, title: r.title }] : [])),
  }),
];
