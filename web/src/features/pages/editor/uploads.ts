import { notifications } from '@mantine/notifications';
import type { Editor } from '@tiptap/core';
import { api, call } from '../../../api/client';
import { messageOf } from '../../../api/errors';

export interface UploadTarget {
  workspaceId: string;
  pageId: string;
}

interface Attachment {
  id: string;
  filename: string;
  contentType: string;
}

/** The URL an uploaded file is served at (relative, so the shared schema's URL rules accept it). */
export const downloadUrl = (id: string) => `/api/v1/attachments/${encodeURIComponent(id)}/download`;

let uploads = 0;

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
    notifications.update({ id, loading: false, color: 'red', title: `Could not upload ${file.name}`, message: messageOf(err), autoClose: false });
    return null;
  }
}

/**
 * Uploads files and inserts each where it was pasted or dropped: an image node for images, a link to the file
 * otherwise. `at` is the document position (the selection when absent).
 */
export async function insertFiles(editor: Editor, target: UploadTarget, files: File[], at?: number) {
  let pos = at;
  for (const file of files) {
    const attachment = await uploadFile(target, file);
    if (!attachment || editor.isDestroyed) continue;
    const href = downloadUrl(attachment.id);
    // An image is a block: a paragraph after it gives the caret somewhere to go (typing would replace a selected image).
    const content = file.type.startsWith('image/')
      ? [{ type: 'image', attrs: { src: href, alt: file.name } }, { type: 'paragraph' }]
      : [{ type: 'text', text: file.name, marks: [{ type: 'link', attrs: { href } }] }];
    const chain = editor.chain().focus();
    if (pos !== undefined) chain.insertContentAt(Math.min(pos, editor.state.doc.content.size), content);
    else chain.insertContent(content);
    chain.run();
    pos = undefined; // later files follow the cursor, which now sits after the first
  }
}

/** Lets the person pick image files (the slash menu's "Image"). */
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
