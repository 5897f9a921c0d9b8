import { posix } from 'node:path';
import { stemOf } from './paths.js';
import type { ImportFiles, PlannedPage } from './source.js';

/**
 * The page tree of a folder of documents, as Markdown folders, HTML folders and Obsidian vaults lay it out:
 * - each page file (`isPage`) is a page; a folder is the parent of what it holds;
 * - a folder's own page is the file beside it with the folder's name (`Guide.md` next to `Guide/`, kb's and Notion's
 *   layout), else its `index.*` or `README.*` (any page extension, any case), else an empty page named after it;
 * - siblings in natural order of their names (`2 Setup` before `10 Deploy`), since file names carry no other order.
 * `titleOf` names a page from its file (front matter, `<title>`…); `body` says how its content is read.
 */

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export interface FolderTreeOptions {
  isPage(path: string): boolean;
  titleOf(path: string): Promise<string | null>;
  kind(path: string): string;
  /** Folder names that are not pages (`.obsidian`, `attachments`…). */
  skipFolder?(folder: string): boolean;
}

interface Folder {
  path: string;
  files: string[];
  folders: Map<string, Folder>;
}

function folderTree(paths: readonly string[]): Folder {
  const root: Folder = { path: '', files: [], folders: new Map() };
  for (const path of paths) {
    let at = root;
    const parts = path.split('/');
    for (const part of parts.slice(0, -1)) {
      let next = at.folders.get(part);
      if (!next) {
        next = { path: at.path ? `${at.path}/${part}` : part, files: [], folders: new Map() };
        at.folders.set(part, next);
      }
      at = next;
    }
    at.files.push(path);
  }
  return root;
}

function holdsPages(folder: Folder, opts: FolderTreeOptions): boolean {
  if (opts.skipFolder?.(folder.path)) return false;
  return folder.files.some((f) => opts.isPage(f)) || [...folder.folders.values()].some((f) => holdsPages(f, opts));
}

const INDEX = /^(index|readme)$/i;

export async function planFolderTree(files: ImportFiles, opts: FolderTreeOptions): Promise<PlannedPage[]> {
  const pages: PlannedPage[] = [];
  const root = folderTree(files.paths);
  const visit = async (folder: Folder, parentKey: string | null) => {
    const pageFiles = folder.files.filter((f) => opts.isPage(f));
    const subfolders = [...folder.folders.values()].filter((f) => holdsPages(f, opts));
    // A folder's own page, when it has one inside it, is not also listed as a child.
    const inside = parentKey === null && folder.path === '' ? undefined : pageFiles.find((f) => INDEX.test(stemOf(f)));
    const besides = new Map(subfolders.map((sub) => [sub.path, pageFiles.find((f) => stemOf(f) === posix.basename(sub.path) && f !== inside)]));
    const twins = new Set([...besides.values()].filter((f): f is string => !!f));
    const items: { name: string; file?: string; folder?: Folder }[] = [
      ...pageFiles.filter((f) => f !== inside && !twins.has(f)).map((file) => ({ name: stemOf(file), file })),
      ...subfolders.map((sub) => ({ name: posix.basename(sub.path), folder: sub, file: besides.get(sub.path) })),
    ].sort((a, b) => collator.compare(a.name, b.name));
    for (const item of items) {
      const sub = item.folder;
      const own = item.file ?? (sub ? sub.files.find((f) => opts.isPage(f) && INDEX.test(stemOf(f))) : undefined);
      const key = own ?? `${sub?.path}/`;
      const title = (own && (await opts.titleOf(own))) || (own && !INDEX.test(stemOf(own)) ? stemOf(own) : item.name);
      pages.push({
        key,
        title,
        parentKey,
        body: own ? { path: own, kind: opts.kind(own) } : null,
        aliases: sub ? [sub.path, `${sub.path}/`] : [],
      });
      if (sub) await visit(sub, key);
    }
  };
  await visit(root, null);
  return pages;
}
