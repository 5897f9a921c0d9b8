import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { type RangeRequest, requestedRange } from '../../blobs/byte-range.js';
import { BlobTooLargeError, deleteBlobs } from '../../blobs/index.js';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import type { Role } from '../workspaces/workspaces.policy.js';
import { cleanFilename, decodeBase64Strict, tooLarge } from './attachments.files.js';
import { presentAttachment } from './attachments.present.js';
import { attachmentsRepo } from './attachments.repo.js';
import type { AttachmentUploadBody } from './attachments.schema.js';

/** Viewers read and download; editors upload; deleting needs editor rights and being the uploader, or a space admin. */

export async function listAttachments(ctx: Ctx, input: { pageId: string; workspaceId: string }) {
  await requirePageAccess(ctx, input.pageId, 'viewer', { workspaceId: input.workspaceId });
  return (await attachmentsRepo.listForPage(ctx.db, input.workspaceId, input.pageId)).map(presentAttachment);
}

/** The attachment and the caller's role on its page; an attachment on an invisible page does not exist. */
async function accessAttachment(ctx: Ctx, attachmentId: string, min: Role, givenWorkspaceId?: string) {
  const row = await attachmentsRepo.find(ctx.db, attachmentId);
  if (!row || (givenWorkspaceId && givenWorkspaceId !== row.workspaceId)) throw notFound('Attachment', attachmentId);
  try {
    const { role } = await requirePageAccess(ctx, row.pageId, min, { workspaceId: row.workspaceId });
    return { row, role };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound('Attachment', attachmentId);
    throw err;
  }
}

export async function getAttachment(ctx: Ctx, attachmentId: string, givenWorkspaceId?: string) {
  const { row } = await accessAttachment(ctx, attachmentId, 'viewer', givenWorkspaceId);
  return presentAttachment(row);
}

interface NewFile {
  pageId: string;
  workspaceId: string;
  filename: string;
  contentType: string;
}

/** Checks that the caller may attach to the page and that the name is usable, before any byte is stored. */
async function prepareUpload(ctx: Ctx, file: NewFile) {
  const actor = requireActor(ctx);
  await requirePageAccess(ctx, file.pageId, 'editor', { workspaceId: file.workspaceId });
  return { actor, filename: cleanFilename(file.filename) };
}

/** Stores the bytes, then the row; a blob whose row could not be written is removed again. */
async function store(ctx: Ctx, file: NewFile & { filename: string; createdBy: string }, bytes: Readable | Buffer) {
  const max = ctx.env.config.MAX_ATTACHMENT_BYTES;
  const id = newId();
  let stored: { size: number; sha256: string };
  try {
    stored = await ctx.env.blobs.put(id, bytes, { maxBytes: max });
  } catch (err) {
    if (err instanceof BlobTooLargeError) throw tooLarge(max);
    throw err;
  }
  const row = {
    id,
    workspaceId: file.workspaceId,
    pageId: file.pageId,
    filename: file.filename,
    contentType: file.contentType,
    blobKey: id,
    createdBy: file.createdBy,
    ...stored,
  };
  try {
    await attachmentsRepo.insert(ctx.db, row);
  } catch (err) {
    await deleteBlobs(ctx.env.blobs, [id], ctx.log);
    throw err;
  }
  return getAttachment(ctx, id);
}

/** A JSON upload: the bytes as strict Base64 in `data`. */
export async function uploadAttachment(ctx: Ctx, input: z.infer<typeof AttachmentUploadBody>) {
  const { actor, filename } = await prepareUpload(ctx, input);
  const bytes = decodeBase64Strict(input.data, ctx.env.config.MAX_ATTACHMENT_BYTES);
  return store(ctx, { ...input, filename, createdBy: actor.userId }, bytes);
}

/** A streamed upload (multipart): the bytes go to the blob store as they arrive, hashed on the way. */
export async function uploadAttachmentStream(ctx: Ctx, file: NewFile, stream: Readable) {
  const { actor, filename } = await prepareUpload(ctx, file);
  return store(ctx, { ...file, filename, createdBy: actor.userId }, stream);
}

/**
 * The record and a stream of its bytes: all of them, or the single range asked for (checked against the recorded size
 * before the store is asked; 416 when it lies outside the file).
 */
export async function openAttachment(ctx: Ctx, attachmentId: string, givenWorkspaceId?: string, request: RangeRequest = {}) {
  const { row } = await accessAttachment(ctx, attachmentId, 'viewer', givenWorkspaceId);
  return { attachment: presentAttachment(row), ...(await openAttachmentBytes(ctx, row, request)) };
}

/** A stream of an attachment row's bytes, or of the range `request` asks for (`range` set when it is partial). */
export async function openAttachmentBytes(ctx: Ctx, row: { blobKey: string; size: number; sha256: string }, request: RangeRequest = {}) {
  const range = requestedRange(row.size, request, `"${row.sha256}"`);
  return { range, stream: await ctx.env.blobs.get(row.blobKey, range) };
}

/** Removes the row, then its blob. */
export async function deleteAttachment(ctx: Ctx, attachmentId: string, givenWorkspaceId?: string) {
  const actor = requireActor(ctx);
  const { row, role } = await accessAttachment(ctx, attachmentId, 'editor', givenWorkspaceId);
  if (role !== 'admin' && row.createdBy !== actor.userId) throw forbidden('Only the uploader or a space admin can delete this attachment', { attachmentId });
  await attachmentsRepo.delete(ctx.db, row.workspaceId, row.id);
  await deleteBlobs(ctx.env.blobs, [row.blobKey], ctx.log);
  return { id: attachmentId, deleted: true as const };
}
