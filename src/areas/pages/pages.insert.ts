import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';
import { historyRepo } from './history/history.repo.js';
import { type NewPage, pagesRepo } from './pages.repo.js';

/** What a new page needs beyond its author and time: `createdBy`/`updatedBy`, the times and version 1 are set here. */
export type PageDraft = Omit<NewPage, 'version' | 'createdBy' | 'updatedBy' | 'createdAt' | 'updatedAt'>;

/**
 * Inserts new pages at version 1, each with its first history entry (`summary` says how it came: an import, a
 * duplicate). Parents come before their children in `drafts`. Returns the rows as inserted.
 */
export async function insertNewPages(db: Db, drafts: PageDraft[], by: { userId: string; now: Date; summary: string }) {
  const rows: NewPage[] = drafts.map((d) => ({ ...d, version: 1, createdBy: by.userId, updatedBy: by.userId, createdAt: by.now, updatedAt: by.now }));
  await pagesRepo.insertMany(db, rows);
  await historyRepo.insertCurrentMany(
    db,
    rows.map((r) => ({
      id: newId(),
      workspaceId: r.workspaceId,
      pageId: r.id,
      version: 1,
      title: r.title,
      summary: by.summary,
      createdBy: by.userId,
      createdAt: by.now,
    })),
  );
  return rows;
}
