import type { Ctx } from '../../context.js';
import { type DocJson, documentToText, emptyDocument } from '../../editor/index.js';
import { parseDocument } from '../../editor/validate.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { convertImportPagesOffThread } from '../../workers/offload.js';
import { MANIFEST_PATH } from '../exports/exports.manifest.js';
import { pageSlug } from '../pages/pages.service.js';
import { AttachmentPlan, storeAttachments } from './imports.attachments.js';
import type { UploadFiles } from './imports.files.js';
import { refused } from './imports.limits.js';
import { resolveReferences, type Target } from './imports.links.js';
import type { ImportRow } from './imports.repo.js';
import { importsRepo } from './imports.repo.js';
import { PageSpool } from './imports.spool.js';
import { writeImport } from './imports.write.js';
import { DETECTION_ORDER, importSources } from './sources/index.js';
import type { ImportPlan, ImportSource, PlannedPage, SourceName, Warning } from './sources/source.js';

/** Pages converted per batch (read, converted on the CPU pool, links resolved): bounds the text held at once. */
const BATCH = 50;
const PROGRESS_EVERY_MS = 250;
const MAX_WARNINGS = 1000;

/** The source asked for, or for `auto` the first whose `detect` recognises the files (kb's manifest first of all). */
export async function pickSource(files: UploadFiles, requested: string): Promise<ImportSource> {
  if (requested !== 'auto') {
    const source = importSources[requested as SourceName];
    if (!source) throw refused('unsupported_file', `Importing from ${requested} is not available`, { source: requested });
    return source;
  }
  if (files.has(MANIFEST_PATH) && importSources.markdown) return importSources.markdown;
  for (const name of DETECTION_ORDER) {
    const source = importSources[name];
    if (source && (await source.detect(files))) return source;
  }
  throw refused('unsupported_file', 'Nothing in the upload looks like pages: no Markdown or HTML files, nor a Notion, Confluence or Obsidian export');
}

function warningList() {
  const list: Warning[] = [];
  let dropped = 0;
  return {
    list,
    warn(w: Warning) {
      if (list.length < MAX_WARNINGS) list.push({ path: w.path, message: w.message.slice(0, 1000) });
      else dropped++;
    },
    all(): Warning[] {
      return dropped ? [...list, { path: '', message: `${dropped} more warnings not listed` }] : list;
    },
  };
}

/** Keys and aliases → page, with the ids the pages will have. */
function pageIndex(pages: PlannedPage[], url: (id: string, title: string) => string) {
  const ids = new Map<string, { id: string; url: string; key: string }>();
  for (const page of pages) {
    const id = newId();
    const entry = { id, url: url(id, page.title), key: page.key };
    ids.set(page.key, entry);
    for (const alias of page.aliases ?? []) if (!ids.has(alias)) ids.set(alias, entry);
  }
  return ids;
}

/**
 * Reads the upload's pages and files into what the import will create, then writes it in one transaction. Returns
 * the result; throws (an AppError naming the file for anything wrong with the upload) having left nothing behind.
 */
export async function runImport(ctx: Ctx, row: ImportRow, files: UploadFiles, signal: AbortSignal) {
  const source = await pickSource(files, row.source);
  await importsRepo.markRunning(ctx.db, row.workspaceId, row.id, source.name, ctx.now());
  const warnings = warningList();
  const plan = await source.plan(files, (w) => warnings.warn(w));
  if (plan.pages.length === 0) throw refused('empty', 'The upload holds no pages');

  const address = await importsRepo.addressOf(ctx.db, row.workspaceId, row.spaceId);
  const base = `/w/${encodeURIComponent(address?.hostname ?? row.workspaceId)}/s/${encodeURIComponent(address?.slug ?? row.spaceId)}/p/`;
  const index = pageIndex(plan.pages, (id, title) => `${base}${pageSlug(title)}-${id}`);
  const attachments = new AttachmentPlan(plan.fileNames);
  for (const page of plan.pages) for (const path of page.attachments ?? []) attachments.claim(path, page.key, page.attachmentDetails?.[path]);

  let done = 0;
  let total = plan.pages.length + attachments.size;
  let last = 0;
  const step = async (n: number, force = false) => {
    done += n;
    if (!force && Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    await importsRepo.progress(ctx.db, row.workspaceId, row.id, done, total);
  };
  await step(0, true);

  const spool = await PageSpool.open(ctx.env.config.DATA_DIR);
  try {
    const maxPageBytes = ctx.env.config.MAX_PAGE_BYTES;
    for (let i = 0; i < plan.pages.length; i += BATCH) {
      signal.throwIfAborted();
      const batch = plan.pages.slice(i, i + BATCH);
      const withBody = batch.filter((p) => p.body);
      const bodies = [];
      for (const page of withBody) bodies.push({ ...page.body!, text: page.body!.text ?? (await files.text(page.body!.path)) });
      const converted = await convertImportPagesOffThread(ctx.env.config, { source: source.name, bodies }, signal);
      const docs = new Map(withBody.map((p, j) => [p.key, converted[j]]));
      for (const page of batch) {
        const path = page.body?.path ?? page.key;
        const out = docs.get(page.key);
        if (out && !out.ok) throw refused('unsupported_file', `${path} could not be read: ${out.message}`, { path });
        for (const message of out?.warnings ?? []) warnings.warn({ path, message });
        const resolver = {
          target(ref: string): Target {
            const at = source.resolve(path, ref, files);
            if (at === null) return null;
            const linked = index.get(at);
            if (linked) return { page: linked };
            if (!files.has(at)) return null;
            return { attachmentUrl: `/api/v1/attachments/${attachments.claim(at, page.key).id}/download` };
          },
          warn: (message: string) => warnings.warn({ path, message }),
        };
        const doc = out?.doc ? resolveReferences(out.doc, resolver) : emptyDocument();
        const id = index.get(page.key)!.id;
        await spool.add({ id, key: page.key, parentKey: page.parentKey, title: page.title, icon: page.icon }, checkedContent(path, doc, maxPageBytes));
      }
      await step(batch.length);
    }
    await spool.finish();
    total = plan.pages.length + attachments.size;
    warnUnused(files, plan, attachments, warnings);
    const stored = await storeAttachments(
      ctx,
      files,
      attachments,
      () => step(1),
      (w) => warnings.warn(w),
      signal,
    );
    const all = warnings.all();
    const result = await writeImport(ctx, row, spool, stored, index, all);
    return { result, warnings: all };
  } finally {
    await spool.remove();
  }
}

/** Files no page is made of nor names (hidden ones like `.obsidian/` aside): one warning listing them, so nothing goes unsaid. */
function warnUnused(files: UploadFiles, plan: ImportPlan, attachments: AttachmentPlan, warnings: ReturnType<typeof warningList>) {
  // A file its source already warned about (an inner zip, say) is not listed again.
  const used = new Set<string>([MANIFEST_PATH, ...attachments.byPath.keys(), ...warnings.list.map((w) => w.path), ...(plan.ignored ?? [])]);
  for (const page of plan.pages) {
    if (page.body) used.add(page.body.path);
    used.add(page.key);
    for (const alias of page.aliases ?? []) used.add(alias);
  }
  const unused = files.paths.filter((p) => !used.has(p) && !p.split('/').some((part) => part.startsWith('.')));
  if (unused.length === 0) return;
  const shown = unused.slice(0, 20).join(', ');
  warnings.warn({
    path: '',
    message: `${unused.length} file(s) are neither pages nor named by any page, and were not imported: ${shown}${unused.length > 20 ? ', …' : ''}`,
  });
}

/** The document as the API would take it (the same schema and size limit), or the import fails naming the file. */
function checkedContent(path: string, doc: DocJson, maxBytes: number) {
  let node: ReturnType<typeof parseDocument>;
  try {
    node = parseDocument(doc);
  } catch (err) {
    const reason = err instanceof AppError ? err.message : String(err);
    throw refused('unsupported_file', `${path} does not make a valid page: ${reason}`, { path });
  }
  const json = node.toJSON() as DocJson;
  if (Buffer.byteLength(JSON.stringify(json)) > maxBytes)
    throw refused('too_large', `${path} makes a page larger than ${maxBytes} bytes (MAX_PAGE_BYTES)`, { path, limit: maxBytes });
  return { json, text: documentToText(node) };
}
