import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

/** `type/subtype` with optional `; name=value` parameters (RFC 9110 tokens); stored lower-cased. */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[a-z0-9!#$&^_.+-]+=(?:[a-z0-9!#$&^_.+-]+|"[^"\\\r\n]*"))*$/;

export const ContentType = z
  .string()
  .trim()
  .toLowerCase()
  .max(255)
  .regex(MIME, 'must be a MIME type such as text/plain or image/png')
  .describe('MIME type of the bytes, e.g. image/png');

export const Filename = z.string().min(1).max(255).describe('Display name; only its last path segment is kept');

export const Attachment = z.object({
  id: z.string(),
  pageId: z.string(),
  workspaceId: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().describe('Bytes'),
  sha256: z.string().describe('SHA-256 of the bytes, lower-case hex'),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});

export const AttachmentUploadBody = z.object({
  pageId: Id,
  workspaceId: Id,
  filename: Filename,
  contentType: ContentType,
  // The size limit is MAX_ATTACHMENT_BYTES, checked on the decoded length; this only bounds the string.
  data: z
    .string()
    .max(200 * 1024 * 1024)
    .describe('The bytes, standard Base64 with padding (RFC 4648 §4), no whitespace'),
});

export const AttachmentListQuery = z.object({ pageId: Id, workspaceId: Id });
export const AttachmentParams = z.object({ attachmentId: Id });
export const AttachmentReadQuery = z.object({ workspaceId: Id.optional().describe('Optional: the attachment’s own workspace is used') });

/** A slice of an attachment's text (the `attachment_read` tool: REST downloads the bytes instead). */
export const AttachmentText = Attachment.pick({ id: true, filename: true, contentType: true, size: true }).extend({
  offset: z.number().describe('The byte the text starts at'),
  text: z.string(),
  nextOffset: z.number().nullable().describe('Where to read on; null at the end'),
});

export const AttachmentResult = envelope(Attachment);
export const AttachmentListResult = envelope(z.array(Attachment));
