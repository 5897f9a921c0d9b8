import type { Selectable } from 'kysely';
import type { AttachmentTable } from '../../db/tables/attachments.js';
import type { TreePage } from './exports.content.repo.js';
import { ATTACHMENTS_FOLDER, FolderNames, safeStem, splitExtension } from './exports.names.js';

/**
 * Where everything goes in the zip. A page is `<Title>.md` (or `.html`); its children sit in the folder `<Title>/`
 * beside it; the attachments of the pages of a folder sit in that folder's `_attachments/`. Siblings keep their
 * order (position, then id), which the manifest records since file names cannot.
 */

/** An attachment as an export places it: the table's row without who made it and its workspace. */
export type AttachmentRef = Omit<Selectable<AttachmentTable>, 'workspaceId' | 'createdBy'>;

export interface PlacedPage {
  page: TreePage;
  path: string;
  parentId: string | null;
  /** Order among its siblings in the export, from 0. */
  index: number;
}

export interface Layout {
  /** Depth first, each parent before its children, siblings in order. */
  pages: PlacedPage[];
  attachmentPaths: Map<string, string>;
  attachmentsOf: Map<string, AttachmentRef[]>;
  pagePaths: Map<string, string>;
  titles: Map<string, string>;
  /** The pages placed under each page, in order (what its subpages block lists). */
  childrenOf: Map<string, PlacedPage[]>;
}

/** The names taken in `folder`, made on first use with `reserved` already taken. */
function namesOf(folders: Map<string, FolderNames>, folder: string, reserved: string[] = []): FolderNames {
  let names = folders.get(folder);
  if (!names) {
    names = new FolderNames();
    for (const name of reserved) names.reserve(name);
    folders.set(folder, names);
  }
  return names;
}

const byPosition = (a: TreePage, b: TreePage) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Lays out the pages reachable from `rootIds` through `pages` (a page whose parent is missing, trashed say, is left
 * out with its subtree), and the attachments of those pages.
 */
export function layOut(pages: TreePage[], rootIds: string[], extension: string, attachments: AttachmentRef[]): Layout {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const children = new Map<string, TreePage[]>();
  for (const p of pages) {
    if (!p.parentId || rootIds.includes(p.id)) continue;
    const list = children.get(p.parentId) ?? [];
    list.push(p);
    children.set(p.parentId, list);
  }
  for (const list of children.values()) list.sort(byPosition);
  const roots = rootIds
    .map((id) => byId.get(id))
    .filter((p): p is TreePage => !!p)
    .sort(byPosition);

  const pageFolders = new Map<string, FolderNames>();
  const namesIn = (folder: string) => namesOf(pageFolders, folder, [ATTACHMENTS_FOLDER]);

  const placed: PlacedPage[] = [];
  const pagePaths = new Map<string, string>();
  const folderOf = new Map<string, string>();
  // Depth first without recursion (a tree may be deep): a stack of pages still to place, next sibling on top.
  const stack = roots.map((page, index) => ({ page, index, folder: '', parentId: null as string | null })).reverse();
  while (stack.length) {
    const { page, index, folder, parentId } = stack.pop()!;
    const stem = namesIn(folder).claim(safeStem(page.title), extension, ['']);
    const path = folder ? `${folder}/${stem}${extension}` : `${stem}${extension}`;
    placed.push({ page, path, parentId, index });
    pagePaths.set(page.id, path);
    folderOf.set(page.id, folder);
    const childFolder = folder ? `${folder}/${stem}` : stem;
    const kids = children.get(page.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ page: kids[i], index: i, folder: childFolder, parentId: page.id });
  }

  const attachmentPaths = new Map<string, string>();
  const attachmentsOf = new Map<string, AttachmentRef[]>();
  const attachmentFolders = new Map<string, FolderNames>();
  for (const a of attachments) {
    const folder = folderOf.get(a.pageId);
    if (folder === undefined) continue;
    const dir = folder ? `${folder}/${ATTACHMENTS_FOLDER}` : ATTACHMENTS_FOLDER;
    const { stem, ext } = splitExtension(a.filename);
    const name = `${namesOf(attachmentFolders, dir).claim(safeStem(stem, 'file'), ext)}${ext}`;
    attachmentPaths.set(a.id, `${dir}/${name}`);
    const list = attachmentsOf.get(a.pageId);
    if (list) list.push(a);
    else attachmentsOf.set(a.pageId, [a]);
  }
  const titles = new Map(placed.map((p) => [p.page.id, p.page.title]));
  const childrenOf = new Map<string, PlacedPage[]>();
  for (const p of placed) {
    if (!p.parentId) continue;
    const list = childrenOf.get(p.parentId);
    if (list) list.push(p);
    else childrenOf.set(p.parentId, [p]);
  }
  return { pages: placed, attachmentPaths, attachmentsOf, pagePaths, titles, childrenOf };
}
