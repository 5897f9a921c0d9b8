import { generateNKeysBetween } from 'fractional-indexing';
import { deleteBlobs } from '../../blobs/index.js';
import { type Ctx, requireActor } from '../../context.js';
import { attachmentsRepo } from '../attachments/attachments.repo.js';
import { finishedEvent } from '../events/events.finished.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { insertNewPages, type PageDraft } from '../pages/pages.insert.js';
import { placePosition } from '../pages/pages.position.js';
import { pagesRepo } from '../pages/pages.repo.js';
import { pageSlug } from '../pages/pages.service.js';
import type { StoredAttachment } from './imports.attachments.js';
import { requireImportTarget } from './imports.policy.js';
import type { ImportResultJson, ImportRow } from './imports.repo.js';
import { importsRepo } from './imports.repo.js';
import type { PageHead, PageSpool } from './imports.spool.js';

/** Rows per INSERT: large enough to be quick, small enough to stay under the drivers' parameter limits. */
const CHUNK = 100;
const MAX_TITLE = 500;
const MAX_ICON = 100;

const titleOf = (title: string) => title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) || 'Untitled';
/** An icon as the pages API takes one (1 to 100 characters, trimmed), else none. */
const iconOf = (icon: string | undefined) => {
  const trimmed = icon?.trim() ?? '';
  return trimmed && trimmed.length <= MAX_ICON ? trimmed : null;
};

/**
 * Writes the whole import in one transaction: the pages (each parent before its children, siblings keeping the
 * plan's order after whatever the target already holds), a history entry each, the attachments' rows, and the
 * import's success. Access is checked again inside it. If it fails, the attachments' blobs are deleted: nothing of
 * the import is left.
 */
export async function writeImport(
  ctx: Ctx,
  row: ImportRow,
  spool: PageSpool,
  attachments: StoredAttachment[],
  index: Map<string, { id: string }>,
  warnings: { path: string; message: string }[],
): Promise<ImportResultJson> {
  const actor = requireActor(ctx);
  const now = ctx.now();
  const idOf = (key: string | null) => (key === null ? null : (index.get(key)?.id ?? null));
  const pages = spool.heads;
  const siblings = new Map<string | null, PageHead[]>();
  for (const page of pages) {
    const list = siblings.get(page.parentKey) ?? [];
    list.push(page);
    siblings.set(page.parentKey, list);
  }
  const rootPageIds = (siblings.get(null) ?? []).map((p) => p.id);
  const result: ImportResultJson = { pages: pages.length, attachments: attachments.length, rootPageIds };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // A second run of the same import (a lost lease) must not write its pages twice.
      const status = await importsRepo.lockStatus(trx, row.workspaceId, row.id);
      if (status !== 'running') throw new Error(`the import is ${status ?? 'deleted'}, no longer running`);
      await pagesRepo.lockSpaceTree(trx, row.spaceId, 'shared');
      await requireImportTarget(ctx, trx, row);
      const at = { workspaceId: row.workspaceId, spaceId: row.spaceId, parentId: row.parentPageId };
      const position = new Map<string, string>();
      for (const [parentKey, list] of siblings) {
        const first = parentKey === null ? await placePosition(trx, at, {}) : null;
        const keys = first === null ? generateNKeysBetween(null, null, list.length) : [first, ...generateNKeysBetween(first, null, list.length - 1)];
        for (const [i, p] of list.entries()) position.set(p.id, keys[i]);
      }
      const heads = new Map(pages.map((p) => [p.id, p]));
      for await (const batch of spool.batches(CHUNK)) {
        const drafts: PageDraft[] = batch.map(({ id, json, text }) => {
          const p = heads.get(id)!;
          return {
            id,
            workspaceId: row.workspaceId,
            spaceId: row.spaceId,
            parentId: p.parentKey === null ? row.parentPageId : idOf(p.parentKey),
            title: titleOf(p.title),
            slug: pageSlug(titleOf(p.title)),
            icon: iconOf(p.icon),
            content: json,
            textContent: text,
            position: position.get(id)!,
          };
        });
        await insertNewPages(trx, drafts, { userId: actor.userId, now, summary: 'Imported' });
      }
      const attachmentRows = attachments.flatMap((a) => {
        const pageId = idOf(a.pageKey);
        if (!pageId) return [];
        const { id, filename, contentType, size, sha256 } = a;
        return [{ id, workspaceId: row.workspaceId, pageId, filename, contentType, size, sha256, blobKey: id, createdBy: actor.userId }];
      });
      for (let i = 0; i < attachmentRows.length; i += CHUNK) await attachmentsRepo.insertMany(trx, attachmentRows.slice(i, i + CHUNK));
      await importsRepo.succeed(trx, row.workspaceId, row.id, result, warnings, now);
      await recordEvent(trx, ctx, finishedEvent('import', row, row.parentPageId, 'succeeded', { pages: result.pages, attachments: result.attachments }));
    });
    await nudgeEventDispatch(ctx);
  } catch (err) {
    await deleteBlobs(
      ctx.env.blobs,
      attachments.map((a) => a.id),
      ctx.log,
    );
    throw err;
  }
  return result;
}
