import type { Node as PMNode } from '@tiptap/pm/model';
import type { Ctx } from '../../context.js';
import type { DocJson } from '../../db/tables/pages.js';
import { checkDocumentDepth, documentToText, parseDocument } from '../../editor/index.js';
import { AppError, missingRequired, validation } from '../../errors.js';
import { markdownToDocumentOffThread } from '../../workers/offload.js';

export interface PageBody {
  doc: PMNode;
  json: DocJson;
  text: string;
}

const tooLarge = (field: string, max: number) =>
  new AppError('VALIDATION_ERROR', `${field} is larger than the ${max} bytes a page may hold`, { field, reason: 'too_large', maxBytes: max });

/**
 * The page body from `content` (ProseMirror JSON) or `markdown`, validated and capped by MAX_PAGE_BYTES.
 * Undefined when neither is given and none is required.
 */
export async function resolveBody(ctx: Ctx, input: { content?: Record<string, unknown>; markdown?: string }, required: boolean): Promise<PageBody | undefined> {
  const max = ctx.env.config.MAX_PAGE_BYTES;
  if (input.content !== undefined && input.markdown !== undefined) throw validation('markdown', 'conflict', 'Send either content or markdown, not both');
  let doc: PMNode;
  let json: DocJson;
  if (input.markdown !== undefined) {
    if (Buffer.byteLength(input.markdown) > max) throw tooLarge('markdown', max);
    json = await markdownToDocumentOffThread(ctx.env.config, input.markdown); // large Markdown parses on the CPU pool
    if (Buffer.byteLength(JSON.stringify(json)) > max) throw tooLarge('markdown', max);
    doc = parseDocument(json, 'markdown');
  } else if (input.content !== undefined) {
    checkDocumentDepth(input.content); // before JSON.stringify, which recursion on deep input would overflow
    if (Buffer.byteLength(JSON.stringify(input.content)) > max) throw tooLarge('content', max);
    doc = parseDocument(input.content);
    json = doc.toJSON() as DocJson;
  } else if (required) throw missingRequired('content', 'content (a ProseMirror document) or markdown is required');
  else return undefined;
  return { doc, json, text: documentToText(doc) };
}
