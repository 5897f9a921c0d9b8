import { notifications } from '@mantine/notifications';
import type { Editor } from '@tiptap/core';
import { blockTypeForFile, cleanMediaName, cleanMime, humanSize } from '@editor/file-blocks';
import { api, call } from '../../../api/client';
import { ApiError, messageOf } from '../../../api/errors';

export interface UploadTarget {
  workspaceId: string;
  pageId: string;
}

interface Attachment {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

/** The URL an uploaded file is served at (relative, so the shared schema's URL rules accept it). */
export const downloadUrl = (id: string) => `/api/v1/attachments/${encodeURIComponent(id)}/download`;

let uploads = 0;

/** Why an upload failed, in words: a file past the limit is named with its size and the limit; anything else as the API says it. */
export function uploadProblem(file: File, err: unknown): string {
  const details = err instanceof ApiError ? (err.details as { reason?: unknown; limit?: unknown } | undefined) : undefined;
  if (details?.reason === 'too_large') {
    const limit = typeof details.limit === 'number' ? ` of ${humanSize(details.limit)}` : '';
    return `${file.name} is ${humanSize(file.size)}, more than the limit${limit} for one file. Share a smaller file, or a link to it.`;
  }
  return messageOf(err);
}

/** Uploads one file to the page as multipart (no Base64 inflation), with a notification that follows it. */
export async function uploadFile(target: UploadTarget, file: File): Promise<Attachment | null> {
  const id = `upload-${++uploads}`;
  notifications.show({ id, loading: true, title: `Uploading ${file.name}…`, message: `${Math.ceil(file.size / 1024)} KB`, autoClose: false });
  const form = new FormData();
  form.set('workspaceId', target.workspaceId);
  form.set('pageId', target.pageId);
  form.set('file', file, file.name);
  try {
    const result = await call(api.POST('/api/v1/attachments', { body: form as never, bodySerializer: (b: unknown) => b as FormData }));
    const attachment = (result as { data: Attachment }).data;
    notifications.update({ id, loading: false, color: 'teal', title: `Uploaded ${file.name}`, message: '', autoClose: 2500 });
    return attachment;
  } catch (err) {
    notifications.update({ id, loading: false, color: 'red', title: `Could not upload ${file.name}`, message: uploadProblem(file, err), autoClose: false });
    return null;
  }
}

/** The block an uploaded file becomes: an image, a video or audio with its player, or a file to download. */
function blockFor(file: File, attachment: Attachment) {
  const href = downloadUrl(attachment.id);
  if (file.type.startsWith('image/')) return { type: 'image', attrs: { src: href, alt: file.name } };
  const type = blockTypeForFile(attachment.contentType || file.type);
  if (type === 'fileAttachment')
    return {
      type,
      attrs: { url: href, name: cleanMediaName(attachment.filename) ?? 'file', size: attachment.size, mime: cleanMime(attachment.contentType) },
    };
  return { type, attrs: { src: href, title: cleanMediaName(attachment.filename) } };
}

/** A drop inside a line of text puts the blocks before that line (dropped at its start) or after it, never splitting it. */
function besideTextblock(editor: Editor, pos: number): number {
  const $pos = editor.state.doc.resolve(Math.min(pos, editor.state.doc.content.size));
  if (!$pos.parent.isTextblock || $pos.depth === 0) return $pos.pos;
  return $pos.parentOffset === 0 ? $pos.before() : $pos.after();
}

/**
 * Uploads files and inserts each where it was pasted or dropped, as its block (see `blockFor`). `at` is the document
 * position (the selection when absent).
 */
export async function insertFiles(editor: Editor, target: UploadTarget, files: File[], at?: number) {
  let pos = at === undefined ? undefined : besideTextblock(editor, at);
  for (const file of files) {
    const attachment = await uploadFile(target, file);
    if (!attachment || editor.isDestroyed) continue;
    // A block: a paragraph after it gives the caret somewhere to go (typing would replace a selected block).
    const content = [blockFor(file, attachment), { type: 'paragraph' }];
    const chain = editor.chain().focus();
    if (pos !== undefined) chain.insertContentAt(Math.min(pos, editor.state.doc.content.size), content);
    else chain.insertContent(content);
    chain.run();
    pos = undefined; // later files follow the cursor, which now sits after the first
  }
}

/** Lets the person pick files (the slash menu's "Image", "File", "Video" and "Audio"); `accept` as an `<input type=file>` takes it. */
export function pickFiles(accept: string): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.multiple = true;
    input.addEventListener('change', () => resolve(Array.from(input.files ?? [])));
    input.click();
  });
}
