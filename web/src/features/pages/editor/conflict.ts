import type { Editor, JSONContent } from '@tiptap/core';
import { api, data } from '../../../api/client';
import { type LoadedPage, loadPage } from './page-doc';
import type { Autosave } from './useAutosave';

/** "Keep my version": save this editor's text over the server's, under the server's current tag. */
export async function keepMine(autosave: Autosave, pageId: string): Promise<boolean> {
  const etag = autosave.conflict?.currentEtag ?? (await loadPage(pageId)).etag;
  return autosave.saveNow(etag);
}

/**
 * "Use theirs": this editor's text is first saved (so it becomes a history entry, never lost), then the version
 * it replaced (theirs) is restored on top, and the editor reloads what the server now holds.
 */
export async function takeTheirs(autosave: Autosave, pageId: string, editor: Editor): Promise<LoadedPage> {
  if (!(await keepMine(autosave, pageId))) throw new Error('Your version could not be saved, so theirs was not loaded; try again');
  const history = (await data(api.GET('/api/v1/pages/{pageId}/history', { params: { path: { pageId }, query: { limit: 2 } } }))) as unknown as {
    id: string;
  }[];
  const theirs = history[1];
  if (theirs) await data(api.POST('/api/v1/pages/{pageId}/restore', { params: { path: { pageId } }, body: { historyId: theirs.id } }));
  const loaded = await loadPage(pageId);
  editor.commands.setContent(loaded.page.content as JSONContent, { emitUpdate: false });
  autosave.reset(loaded.etag);
  return loaded;
}
