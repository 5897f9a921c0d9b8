import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import { MemoryDeleteQuery, MemoryIdParams, MemoryIngestBody, MemoryListQuery, MemoryListResult, MemoryResult } from './memory.schema.js';
import { deleteMemory, ingestMemory, listMemories } from './memory.service.js';

export const memoryRoutes: AreaRoutes = (app, deps) => {
  const tags = ['memory'];
  const security = BEARER;
  app.post(
    '/memory',
    {
      schema: {
        tags,
        security,
        summary: 'Store a memory (editor); embedded before the answer, so it is searchable at once',
        body: MemoryIngestBody,
        response: { 201: MemoryResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await ingestMemory(ctxOf(req, deps), req.body) }),
  );
  app.get(
    '/memory',
    {
      schema: {
        tags,
        security,
        summary: 'Memories of a workspace, newest first, optionally by tag',
        querystring: MemoryListQuery,
        response: { 200: MemoryListResult },
      },
    },
    async (req) => listMemories(ctxOf(req, deps), req.query),
  );
  app.delete(
    '/memory/:id',
    { schema: { tags, security, summary: 'Delete a memory (editor)', params: MemoryIdParams, querystring: MemoryDeleteQuery, response: { 200: Deleted } } },
    async (req) => ({ data: await deleteMemory(ctxOf(req, deps), req.params.id, req.query.workspaceId) }),
  );
};
