import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

export const ImportSourceName = z
  .enum(['auto', 'markdown', 'html', 'notion', 'confluence', 'obsidian'])
  .describe(
    'What made the file: `markdown` (a folder of Markdown, kb’s own export included), `html`, `notion` (its “Markdown & CSV” or “HTML” export), `confluence` (a space’s HTML export), `obsidian` (a vault); `auto` (the default) tells them apart',
  );

/** The text fields of `POST /imports` (multipart, before the part named `file`), and of the MCP tool. */
export const ImportCreateFields = z.object({
  workspaceId: Id,
  spaceId: Id.describe('The space the pages go into (editor rights needed)'),
  parentPageId: Id.optional().describe('Put the imported pages under this page of the space (default: at the top of the space)'),
  source: ImportSourceName.default('auto'),
});

/** The JSON form (scripts and MCP): the file as strict Base64, for files up to the JSON body limit. */
export const ImportCreateBody = ImportCreateFields.extend({
  filename: z.string().min(1).max(255).describe('The file’s name: `.zip`, `.md`, `.markdown` or `.html`'),
  data: z.string().describe('The file’s bytes as strict Base64'),
});

export const ImportParams = z.object({ importId: Id });

export const ImportStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const ImportWarning = z.object({ path: z.string().describe('The file in the upload'), message: z.string() });

export const Import = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string(),
  parentPageId: z.string().nullable(),
  source: ImportSourceName,
  detectedSource: z.string().nullable().describe('The source the import was read as (set once it has started)'),
  filename: z.string(),
  size: z.number().describe('Bytes uploaded'),
  status: ImportStatus,
  progress: z.object({
    done: z.number().describe('Pages and attachments written'),
    total: z.number().describe('Pages and attachments to write (0 until planned)'),
  }),
  result: z
    .object({
      pages: z.number().describe('Pages created'),
      attachments: z.number().describe('Attachments created'),
      rootPageIds: z.array(z.string()).describe('The top pages of what was imported, in order'),
    })
    .nullable()
    .describe('Once succeeded'),
  warnings: z.array(ImportWarning).describe('What could not be carried over'),
  error: z
    .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
    .nullable()
    .describe('Why it failed (status failed), in the API’s error shape; nothing of a failed import is kept'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

export const ImportResult = envelope(Import);
