import type { Selectable } from 'kysely';
import type { TemplateTable } from '../../db/tables/templates.js';

export type TemplateRecord = Omit<Selectable<TemplateTable>, 'content'>;

export function presentTemplate(row: TemplateRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    title: row.title,
    icon: row.icon,
    description: row.description,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentTemplateWithContent(row: Selectable<TemplateTable>, markdown?: string) {
  return { ...presentTemplate(row), content: row.content, ...(markdown !== undefined ? { markdown } : {}) };
}
