import { BlobNotFoundError } from '../../blobs/index.js';
import type { Ctx } from '../../context.js';
import { renderExportPagesOffThread } from '../../workers/offload.js';
import { exportContentRepo, type TreePage } from './exports.content.repo.js';
import { type AttachmentRef, type Layout, layOut } from './exports.layout.js';
import { rewriteLinks } from './exports.links.js';
import { MANIFEST_PATH, type Manifest, type ManifestPage } from './exports.manifest.js';
import { relativeUrl } from './exports.names.js';
import type { ExportRow } from './exports.present.js';
import { exportsRepo } from './exports.repo.js';
import { worthCompressing, ZipWriter } from './exports.zip.js';

/** Pages read, rendered and written per batch: bounds memory and gives progress its steps. */
export const PAGE_BATCH = 50;
const PROGRESS_EVERY_MS = 250;

/**
 * The pages an export covers, read without content: a space, a page, or a page and its live descendants; only those
 * open to the requester (so neither a closed page nor its attachments reach the zip).
 */
async function treeOf(ctx: Ctx, row: ExportRow): Promise<{ pages: TreePage[]; rootIds: string[] }> {
  if (!row.pageId) {
    const pages = await exportContentRepo.spacePages(ctx.db, row.workspaceId, row.spaceId, row.requestedBy);
    return { pages, rootIds: pages.filter((p) => p.parentId === null).map((p) => p.id) };
  }
  const pages = await exportContentRepo.subtreePages(ctx.db, row.workspaceId, row.spaceId, row.pageId, row.requestedBy);
  return { pages: row.includeChildren ? pages : pages.filter((p) => p.id === row.pageId), rootIds: [row.pageId] };
}

async function attachmentsOf(ctx: Ctx, row: ExportRow, pageIds: string[]): Promise<AttachmentRef[]> {
  if (!row.includeAttachments) return [];
  const out: AttachmentRef[] = [];
  for (let i = 0; i < pageIds.length; i += 1000) {
    const rows = await exportContentRepo.attachments(ctx.db, row.workspaceId, pageIds.slice(i, i + 1000));
    out.push(...rows.map((a) => ({ ...a, size: Number(a.size) })));
  }
  return out;
}

/** Progress written at most every PROGRESS_EVERY_MS (and at the end). */
function progressWriter(ctx: Ctx, row: ExportRow, total: number) {
  let done = 0;
  let last = 0;
  return {
    async step(n: number, force = false) {
      done += n;
      if (!force && Date.now() - last < PROGRESS_EVERY_MS) return;
      last = Date.now();
      await exportsRepo.progress(ctx.db, row.workspaceId, row.id, done, total);
    },
  };
}

/** Authors of each page of a batch, by name: its creator first, then whoever saved a version, in order. */
async function authorsOf(ctx: Ctx, workspaceId: string, contents: { id: string; createdBy: string | null }[]) {
  const history = await exportContentRepo.historyAuthors(
    ctx.db,
    workspaceId,
    contents.map((c) => c.id),
  );
  const ids = new Map(contents.map((c) => [c.id, [...new Set([...(c.createdBy ? [c.createdBy] : []), ...(history.get(c.id) ?? [])])]]));
  const names = await exportContentRepo.userNames(ctx.db, [...new Set([...ids.values()].flat())]);
  return (pageId: string) => (ids.get(pageId) ?? []).map((id) => names.get(id)).filter((n): n is string => !!n);
}

/**
 * Writes the export's zip to the blob store as a stream: the pages in batches of PAGE_BATCH (read, links made
 * relative, rendered on the CPU pool when large), each batch's attachments streamed from the blob store after it,
 * and the manifest last. Returns the zip's size and hash. The caller has checked the requester may read the pages.
 */
export async function buildExport(ctx: Ctx, row: ExportRow, signal: AbortSignal): Promise<{ size: number; sha256: string }> {
  const { pages, rootIds } = await treeOf(ctx, row);
  const ext = row.format === 'markdown' ? '.md' : '.html';
  const layout = layOut(
    pages,
    rootIds,
    ext,
    await attachmentsOf(
      ctx,
      row,
      pages.map((p) => p.id),
    ),
  );
  const total = layout.pages.length + layout.attachmentPaths.size;
  const progress = progressWriter(ctx, row, total);
  await progress.step(0, true);

  const zip = new ZipWriter();
  const stored = ctx.env.blobs.put(row.blobKey, zip.output);
  stored.catch(() => {});
  const manifest: ManifestPage[] = [];
  const warnings: Manifest['warnings'] = [];
  try {
    for (let i = 0; i < layout.pages.length; i += PAGE_BATCH) {
      signal.throwIfAborted();
      const batch = layout.pages.slice(i, i + PAGE_BATCH);
      await writePages(ctx, row, layout, batch, zip, manifest, signal);
      await progress.step(batch.length);
      for (const placed of batch) {
        for (const a of layout.attachmentsOf.get(placed.page.id) ?? []) {
          await writeAttachment(ctx, layout, a, zip, warnings);
          await progress.step(1);
        }
      }
    }
    const body: Manifest = {
      kind: 'kb-export',
      version: 1,
      exportedAt: ctx.now().toISOString(),
      format: row.format,
      source: { workspaceId: row.workspaceId, spaceId: row.spaceId, pageId: row.pageId, includeChildren: row.includeChildren },
      pages: manifest,
      warnings,
    };
    await zip.add(MANIFEST_PATH, Buffer.from(`${JSON.stringify(body, null, 2)}\n`), { mtime: ctx.now() });
    zip.end();
    const result = await stored;
    await progress.step(0, true);
    return result;
  } catch (err) {
    zip.abort(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}

async function writePages(ctx: Ctx, row: ExportRow, layout: Layout, batch: Layout['pages'], zip: ZipWriter, manifest: ManifestPage[], signal: AbortSignal) {
  const contents = await exportContentRepo.contents(
    ctx.db,
    row.workspaceId,
    batch.map((p) => p.page.id),
  );
  const byId = new Map(contents.map((c) => [c.id, c]));
  const authors = await authorsOf(ctx, row.workspaceId, contents);
  const paths = { page: (id: string) => layout.pagePaths.get(id), attachment: (id: string) => layout.attachmentPaths.get(id) };
  const titleOf = (id: string) => layout.titles.get(id);
  const toRender = batch.map(({ page, path }) => ({
    id: page.id,
    title: page.title,
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
    authors: authors(page.id),
    doc: rewriteLinks(byId.get(page.id)?.content ?? { type: 'doc', content: [] }, path, paths, titleOf),
    children: (layout.childrenOf.get(page.id) ?? []).map((child) => ({ title: child.page.title, href: relativeUrl(path, child.path) })),
  }));
  const texts = await renderExportPagesOffThread(ctx.env.config, { format: row.format, pages: toRender }, signal);
  for (const [j, placed] of batch.entries()) {
    await zip.add(placed.path, Buffer.from(texts[j]), { mtime: placed.page.updatedAt });
    manifest.push({
      id: placed.page.id,
      title: placed.page.title,
      ...(placed.page.icon ? { icon: placed.page.icon } : {}),
      path: placed.path,
      parentId: placed.parentId,
      order: placed.index,
      position: placed.page.position,
      createdAt: toRender[j].createdAt,
      updatedAt: toRender[j].updatedAt,
      authors: toRender[j].authors,
      attachments: (layout.attachmentsOf.get(placed.page.id) ?? []).map((a) => ({
        id: a.id,
        filename: a.filename,
        path: layout.attachmentPaths.get(a.id) as string,
        contentType: a.contentType,
        size: a.size,
        sha256: a.sha256,
      })),
    });
  }
}

/** An attachment's bytes, streamed from the blob store; a missing blob is a warning in the manifest, not a failure. */
async function writeAttachment(ctx: Ctx, layout: Layout, a: AttachmentRef, zip: ZipWriter, warnings: Manifest['warnings']) {
  const path = layout.attachmentPaths.get(a.id) as string;
  let bytes: Awaited<ReturnType<typeof ctx.env.blobs.get>>;
  try {
    bytes = await ctx.env.blobs.get(a.blobKey);
  } catch (err) {
    if (!(err instanceof BlobNotFoundError)) throw err;
    warnings.push({ path, message: `the bytes of attachment ${a.id} (${a.filename}) are missing from the store` });
    return;
  }
  await zip.add(path, bytes, { mtime: a.createdAt, compress: worthCompressing(a.contentType) });
}
