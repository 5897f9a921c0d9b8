import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { memoryEmbeddingText } from '../knowledge/knowledge.indexer.js';
import type { Scope } from '../knowledge/knowledge.repo.js';
import { embedderOf, retrieve } from '../knowledge/knowledge.service.js';
import { vectorStorage } from '../knowledge/knowledge.storage.js';
import { assertWorkspaceRole, memberRole, memberScope, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentMemory } from './memory.present.js';
import { memoryRepo } from './memory.repo.js';
import type { MemoryIngestBody, MemoryListQuery, MemoryQueryInput } from './memory.schema.js';

/**
 * Stores a memory, embedded before the answer so it is found by meaning at once. If the embedder fails the memory
 * is still stored (found by words at once) and the background job embeds it later.
 */
export async function ingestMemory(ctx: Ctx, input: z.infer<typeof MemoryIngestBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'editor');
  const tags = [...new Set(input.tags)];
  const content = input.content.trim();
  const embedder = embedderOf(ctx);
  let vector: { v: number[]; model: string } | null = null;
  try {
    const [v] = await embedder.embed([memoryEmbeddingText(content, tags)]);
    vector = { v, model: embedder.model };
  } catch (err) {
    ctx.log.warn({ err }, 'embedding a memory failed; stored for full-text search, the background job embeds it later');
  }
  const row = await memoryRepo.insert(
    ctx.db,
    await vectorStorage(ctx.db),
    { id: newId(), workspaceId: input.workspaceId, content, tags, source: input.source || null, createdBy: actor.userId, createdAt: ctx.now() },
    vector,
  );
  return presentMemory(row);
}

export async function listMemories(ctx: Ctx, input: z.infer<typeof MemoryListQuery>) {
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const [rows, { total }] = await memoryRepo.list(ctx.db, input.workspaceId, { tag: input.tag, limit: input.limit, offset: (input.page - 1) * input.limit });
  return { data: rows.map(presentMemory), meta: { page: input.page, limit: input.limit, total } };
}

/** Semantic and lexical search over the workspace's memories (optionally those with any of `tags`). */
export async function queryMemories(ctx: Ctx, input: z.infer<typeof MemoryQueryInput>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const scope: Scope = {
    workspaceId: input.workspaceId,
    userId: actor.userId,
    pages: false,
    memories: true,
    tags: input.tags?.length ? input.tags : undefined,
  };
  return { results: await retrieve(ctx.db, embedderOf(ctx), scope, input.query, input.limit, input.mode, ctx.log) };
}

/**
 * Deletes a memory (editors). The workspace comes from the memory; to a non-member it does not exist (404), and a
 * `workspaceId` that is not the memory's is a 404 too.
 */
export async function deleteMemory(ctx: Ctx, id: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const ref = await memoryRepo.findRef(ctx.db, id);
  if (!ref || (workspaceId !== undefined && ref.workspaceId !== workspaceId)) throw notFound('Memory', id);
  const { role } = await memberRole(ctx.db, ref.workspaceId, memberScope(actor));
  if (!role) throw notFound('Memory', id);
  assertWorkspaceRole(role, 'editor', ref.workspaceId);
  await memoryRepo.delete(ctx.db, ref.workspaceId, id);
  return { id, deleted: true as const };
}
