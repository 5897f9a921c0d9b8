import { DELETE, defineTool, PagedList, paged, READ, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import { Memory, MemoryDeleteInput, MemoryIngestBody, MemoryListQuery, MemoryQueryInput, MemoryQueryOutput } from './memory.schema.js';
import { deleteMemory, ingestMemory, listMemories, queryMemories } from './memory.service.js';

const category = 'memory';

export const memoryTools = [
  defineTool({
    name: 'memory_ingest',
    title: 'Remember something',
    category,
    description:
      'Store a memory in a workspace: a fact, decision, preference or finding worth finding again, with `tags` to group it and an optional `source`. It is searchable (by meaning and by words) as soon as this returns. Use `memory_query` or `knowledge.search` to find it later. Returns `{ id, content, tags, source, createdAt, … }`.',
    input: MemoryIngestBody,
    output: Memory,
    annotations: WRITE,
    handler: (ctx, a) => ingestMemory(ctx, a),
  }),
  defineTool({
    name: 'memory_query',
    title: 'Search memories',
    category,
    description:
      'Find memories of a workspace that answer a question: meaning and words combined, best first; narrow with `tags` (any of them). To search pages as well, use `knowledge_search`. Returns `{ results: [{ id, type: "memory", title, content, similarity (0..1), tags, source }] }`.',
    input: MemoryQueryInput,
    output: MemoryQueryOutput,
    annotations: READ,
    handler: (ctx, a) => queryMemories(ctx, a),
  }),
  defineTool({
    name: 'memory_list',
    title: 'List memories',
    category,
    description:
      'List the memories of a workspace, newest first, optionally only those with a `tag`; paged with `page` and `limit`. Returns `{ items: [{ id, content, tags, source, createdAt }], total, page, limit, hasMore }`.',
    input: MemoryListQuery,
    output: PagedList(Memory),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listMemories(ctx, a);
      return paged(data, meta);
    },
  }),
  defineTool({
    name: 'memory_delete',
    title: 'Forget a memory',
    category,
    description: 'Delete a memory by `id` (editors). Irreversible. Returns `{ id, deleted: true }`.',
    input: MemoryDeleteInput,
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteMemory(ctx, a.id, a.workspaceId),
  }),
];
