import type { ColumnType } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';
import type { DocJson } from './pages.js';

/** A page template (migration 0039): workspace-wide when `spaceId` is null, else one space's. */
export interface TemplateTable {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  title: string;
  icon: string | null;
  description: string | null;
  /** A ProseMirror document, validated like a page's. */
  content: ColumnType<DocJson, string, string>;
  createdBy: string | null;
  updatedBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface TemplatesTables {
  templates: TemplateTable;
}
