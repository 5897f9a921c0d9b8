import { z } from 'zod';
import { DELETE, defineTool, ItemList, listOf, READ, WRITE } from '../../mcp/tool.js';
import { readTextSlice } from '../../mcp/text.js';
import { DeletedRecord } from '../../schema.js';
import { Attachment, AttachmentListQuery, AttachmentParams, AttachmentReadQuery, AttachmentText, AttachmentUploadBody } from './attachments.schema.js';
import { deleteAttachment, getAttachment, listAttachments, openAttachment, uploadAttachment } from './attachments.service.js';

const category = 'attachment';

export const attachmentTools = [
  defineTool({
    name: 'attachment_list',
    title: 'List attachments',
    category,
    description:
      'List the files attached to a page: `{ items: [{ id, filename, contentType, size, createdAt }], total }`. Read a text file with `attachment_read`.',
    input: AttachmentListQuery,
    output: ItemList(Attachment),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listAttachments(ctx, a)),
  }),
  defineTool({
    name: 'attachment_get',
    title: 'Get an attachment',
    category,
    description: 'Read an attachment’s record: filename, contentType, size, sha256, page.',
    input: AttachmentParams.extend(AttachmentReadQuery.shape),
    output: Attachment,
    annotations: READ,
    handler: (ctx, a) => getAttachment(ctx, a.attachmentId, a.workspaceId),
  }),
  defineTool({
    name: 'attachment_read',
    title: 'Read an attachment’s text',
    category,
    description:
      'Read the text content of an attachment (UTF-8 text: plain text, Markdown, CSV, JSON, code, …), up to `maxBytes` from byte `offset`. Binary files give VALIDATION_ERROR (reason not_text). Returns `{ id, filename, contentType, size, offset, text, nextOffset }`; `nextOffset` is null at the end, else pass it as `offset` to read on.',
    input: AttachmentParams.extend(AttachmentReadQuery.shape).extend({
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('Byte offset to start at (default 0)'),
      maxBytes: z.number().int().min(1).max(1_000_000).default(100_000).describe('At most this many bytes (default 100000)'),
    }),
    output: AttachmentText,
    annotations: READ,
    handler: async (ctx, a) => {
      const { attachment, stream } = await openAttachment(ctx, a.attachmentId, a.workspaceId);
      const slice = await readTextSlice(stream, a.offset, a.maxBytes);
      return {
        id: attachment.id,
        filename: attachment.filename,
        contentType: attachment.contentType,
        size: attachment.size,
        offset: a.offset,
        text: slice.text,
        nextOffset: slice.nextOffset,
      };
    },
  }),
  defineTool({
    name: 'attachment_upload',
    title: 'Attach a file',
    category,
    description:
      'Attach a file to a page (editor): `filename`, `contentType` (MIME type) and the bytes as Base64 in `data`. Returns the attachment record with its `id`.',
    input: AttachmentUploadBody,
    output: Attachment,
    annotations: WRITE,
    handler: (ctx, a) => uploadAttachment(ctx, a),
  }),
  defineTool({
    name: 'attachment_delete',
    title: 'Delete an attachment',
    category,
    description: 'Delete an attachment for good (its uploader, or a space admin). Returns `{ id, deleted: true }`.',
    input: AttachmentParams.extend(AttachmentReadQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteAttachment(ctx, a.attachmentId, a.workspaceId),
  }),
];
