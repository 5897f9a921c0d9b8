import type { DocJson } from '../../db/tables/pages.js';

export interface PageRecord {
  id: string;
  workspaceId: string;
  spaceId: string;
  parentId: string | null;
  title: string;
  slug: string;
  icon: string | null;
  position: string;
  createdBy: string | null;
  updatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Live child pages, where the query counted them (every page answer but the trash list). */
  childCount?: number;
}

export function presentPage(row: PageRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    parentId: row.parentId,
    title: row.title,
    slug: row.slug,
    icon: row.icon,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    ...(row.childCount === undefined ? {} : { childCount: row.childCount }),
  };
}

/** What a page tree needs of a page (`view=tree`). */
export function presentTreePage(row: Pick<PageRecord, 'id' | 'parentId' | 'title' | 'icon' | 'position' | 'updatedAt'> & { hasChildren: boolean }) {
  return {
    id: row.id,
    parentId: row.parentId,
    title: row.title,
    icon: row.icon,
    position: row.position,
    hasChildren: row.hasChildren,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentPageWithContent(row: PageRecord & { content: DocJson }, markdown?: string) {
  return { ...presentPage(row), content: row.content, ...(markdown === undefined ? {} : { markdown }) };
}
