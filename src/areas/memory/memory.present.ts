import type { MEMORY_COLUMNS } from './memory.repo.js';

type Row = {
  [K in (typeof MEMORY_COLUMNS)[number]]: K extends 'createdAt' | 'updatedAt'
    ? Date
    : K extends 'tags'
      ? string[]
      : K extends 'source' | 'createdBy' | 'embeddingModel'
        ? string | null
        : string;
};

export function presentMemory(r: Row) {
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    content: r.content,
    tags: r.tags,
    source: r.source,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    embeddingModel: r.embeddingModel,
  };
}
