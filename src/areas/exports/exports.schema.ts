import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

export const ExportFormat = z.enum(['markdown', 'html']).describe('`markdown` (`.md` files with YAML front matter) or `html` (standalone `.html` files)');

export const ExportCreateBody = z
  .object({
    workspaceId: Id,
    spaceId: Id.optional().describe('Export this whole space (exactly one of spaceId, pageId)'),
    pageId: Id.optional().describe('Export this page (and, with includeChildren, its subtree) (exactly one of spaceId, pageId)'),
    format: ExportFormat.default('markdown'),
    includeChildren: z.boolean().default(true).describe('With pageId: the page’s descendants too (default true)'),
    includeAttachments: z.boolean().default(true).describe('Put the pages’ attachments in the zip (default true)'),
  })
  .superRefine((v, ctx) => {
    if ((v.spaceId === undefined) === (v.pageId === undefined))
      ctx.addIssue({ code: 'custom', path: [v.spaceId === undefined ? 'spaceId' : 'pageId'], message: 'give exactly one of spaceId and pageId' });
  });

export const ExportParams = z.object({ exportId: Id });

export const ExportStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const Export = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string(),
  pageId: z.string().nullable(),
  format: ExportFormat,
  includeChildren: z.boolean(),
  includeAttachments: z.boolean(),
  status: ExportStatus,
  progress: z.object({
    done: z.number().describe('Pages and attachments written'),
    total: z.number().describe('Pages and attachments to write (0 until counted)'),
  }),
  error: z.string().nullable().describe('Why it failed (status failed)'),
  size: z.number().nullable().describe('Bytes of the zip once succeeded'),
  sha256: z.string().nullable(),
  filename: z.string().describe('The download’s file name'),
  downloadUrl: z.string().nullable().describe('Where to fetch the zip once succeeded'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().describe('The zip and this record are deleted after this time'),
});

export const ExportResult = envelope(Export);
