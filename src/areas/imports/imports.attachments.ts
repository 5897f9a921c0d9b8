import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime-types';
import { deleteBlobs } from '../../blobs/index.js';
import type { Ctx } from '../../context.js';
import { newId } from '../../ids.js';
import { cleanFilename } from '../attachments/attachments.files.js';
import { ContentType } from '../attachments/attachments.schema.js';
import type { UploadFiles } from './imports.files.js';
import { refused } from './imports.limits.js';
import { stemOf } from './sources/paths.js';
import type { Warning } from './sources/source.js';

/** A file of the upload that becomes an attachment of the page that first names it. */
export interface PlannedAttachment {
  id: string;
  path: string;
  pageKey: string;
  filename: string;
  contentType: string;
}

export interface StoredAttachment extends PlannedAttachment {
  size: number;
  sha256: string;
}

/** Types whose first bytes say what they are: a file named so must be one (a `.png` that is not a PNG is refused). */
const SNIFFED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/tiff', 'application/pdf', 'application/zip']);

/** The attachments of an import, by path: the first page to name a file owns it. */
export class AttachmentPlan {
  readonly byPath = new Map<string, PlannedAttachment>();

  /** `names`: what to call a file instead of its own name, by path. */
  constructor(private readonly names: Record<string, string> = {}) {}

  /** `details`: a name and type kb's manifest kept for the file (checked as an upload's would be). */
  claim(path: string, pageKey: string, details: { filename?: string; contentType?: string } = {}): PlannedAttachment {
    let planned = this.byPath.get(path);
    if (!planned) {
      const base = details.filename ?? (Object.hasOwn(this.names, path) ? this.names[path] : (path.split('/').pop() ?? path));
      let filename: string;
      try {
        filename = cleanFilename(base);
      } catch {
        filename = `${stemOf(base) || 'file'}`;
      }
      const given = ContentType.safeParse(details.contentType);
      const contentType = (given.success && given.data) || mime.lookup(base) || 'application/octet-stream';
      planned = { id: newId(), path, pageKey, filename, contentType };
      this.byPath.set(path, planned);
    }
    return planned;
  }

  get size() {
    return this.byPath.size;
  }
}

/**
 * The type the file is stored with: the one its name (or kb's manifest) claims, unless the bytes say otherwise for a
 * type they can prove. Then it is kept as `application/octet-stream` (always downloaded, never shown inline, so a
 * script dressed as a picture cannot run) with a warning: the bytes are not lost, and kb's own export (whose
 * attachments API takes any bytes under any type) always imports back.
 */
async function checkedType(bytes: Buffer, planned: PlannedAttachment, warn: (w: Warning) => void): Promise<string> {
  if (!SNIFFED.has(planned.contentType)) return planned.contentType;
  const found = await fileTypeFromBuffer(bytes);
  if (found?.mime === planned.contentType) return planned.contentType;
  warn({
    path: planned.path,
    message: `named as ${planned.contentType} but its bytes are ${found?.mime ?? 'not that'}; kept as a download (application/octet-stream)`,
  });
  return 'application/octet-stream';
}

/**
 * Stores each planned attachment's bytes in the blob store under its id (the row comes later, in the import's
 * transaction). On any failure the blobs written so far are deleted before the error goes on.
 */
export async function storeAttachments(
  ctx: Ctx,
  files: UploadFiles,
  plan: AttachmentPlan,
  onStored: () => Promise<void>,
  warn: (w: Warning) => void,
  signal: AbortSignal,
) {
  const max = ctx.env.config.MAX_ATTACHMENT_BYTES;
  const stored: StoredAttachment[] = [];
  try {
    for (const planned of plan.byPath.values()) {
      signal.throwIfAborted();
      if (files.size(planned.path) > max)
        throw refused('too_large', `${planned.path} is larger than the attachment limit of ${max} bytes (MAX_ATTACHMENT_BYTES)`, {
          path: planned.path,
          limit: max,
        });
      const bytes = await files.bytes(planned.path);
      const contentType = await checkedType(bytes, planned, warn);
      stored.push({ ...planned, contentType, ...(await ctx.env.blobs.put(planned.id, bytes, { maxBytes: max })) });
      await onStored();
    }
    return stored;
  } catch (err) {
    await deleteBlobs(
      ctx.env.blobs,
      stored.map((a) => a.id),
      ctx.log,
    );
    throw err;
  }
}
