import { posix } from 'node:path';
import { convertConfluencePage } from './confluence-convert.js';
import { type IndexEntry, readSpaceIndex } from './confluence-tree.js';
import { decodeEntities, firstElementText, TITLE_ELEMENT } from './html-text.js';
import { folderOf, relativeTarget, stemOf } from './paths.js';
import type { ImportFiles, ImportPlan, ImportSource, PlannedPage, Warning } from './source.js';

/**
 * A Confluence space exported as HTML (Space settings → Export space → HTML): a folder named after the space key
 * holding `index.html` (the space's details and its page tree), a file per page (`Title_123456.html`, or
 * `123456.html` when the title makes no file name), each page's files under `attachments/<pageId>/`, and
 * Confluence's own `images/` and `styles/`. The tree and sibling order are the index's; a page the index does not
 * list is put at the top, with a warning. A page's attachments are the files of its `attachments/<pageId>/` folder,
 * whether or not its content shows them, named as that page's "Attachments:" section names them (the export
 * stores them under ids). The export's own files (index, styles, icons, thumbnails) are neither imported nor
 * reported as left behind.
 */

const INDEX = 'index.html';
/** The page id in a page file's name: `Title_123456.html` or `123456.html`. */
const PAGE_FILE = /(?:^|_)(\d+)\.html$/;
/** A page id in a link to the Confluence site (`/wiki/spaces/KEY/pages/123/Title`, `viewpage.action?pageId=123`). */
const SITE_PAGE_LINK = /\/spaces\/[^/]+\/pages\/(\d+)(?:[/?#]|$)|\/viewpage\.action\?(?:[^#]*&)?pageId=(\d+)/;

/** The folder holding the export's `index.html`: the top of the zip or one folder down (the space key). */
function exportFolder(files: ImportFiles): string | null {
  let best: string | null = null;
  for (const path of files.paths) {
    if (posix.basename(path) !== INDEX || path.split('/').length > 2) continue;
    const folder = folderOf(path);
    if (best === null || folder.length < best.length) best = folder;
  }
  return best;
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const inFolder = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** The page files directly in the export's folder. */
function pageFiles(files: ImportFiles, folder: string): string[] {
  return files.paths.filter((p) => folderOf(p) === folder && PAGE_FILE.test(posix.basename(p)));
}

const pageIdOf = (path: string) => PAGE_FILE.exec(posix.basename(path))?.[1] ?? null;

/** Page files by page id, worked out once per upload (links are resolved one at a time). */
const byIdCache = new WeakMap<ImportFiles, Map<string, string>>();
function pageFileById(files: ImportFiles): Map<string, string> {
  let found = byIdCache.get(files);
  if (!found) {
    const folder = exportFolder(files) ?? '';
    found = new Map(pageFiles(files, folder).map((p) => [pageIdOf(p) as string, p]));
    byIdCache.set(files, found);
  }
  return found;
}

/** Files of `attachments/<pageId>/` by page id. */
function attachmentsById(files: ImportFiles, folder: string): Map<string, string[]> {
  const prefix = inFolder(folder, 'attachments/');
  const out = new Map<string, string[]>();
  for (const path of files.paths) {
    if (!path.startsWith(prefix)) continue;
    const [id, ...rest] = path.slice(prefix.length).split('/');
    if (!/^\d+$/.test(id) || rest.length === 0) continue; // `thumbnails/…` are renditions, not files of a page
    out.set(id, [...(out.get(id) ?? []), path]);
  }
  return out;
}

/** A page's title from its own file, for a page the index does not list: `Space : Title` in `#title-text`. */
async function titleFromFile(files: ImportFiles, path: string): Promise<string> {
  const html = await files.text(path);
  const heading = firstElementText(html, /<span[^>]*id="title-text"[^>]*>([\s\S]*?)<\/span>/i) ?? firstElementText(html, TITLE_ELEMENT);
  const title = heading?.replace(/^.*? : /, '').trim();
  return title || decodeEntities(stemOf(path).replace(/_\d+$/, '').replace(/-/g, ' ')) || 'Untitled';
}

/** A link of the "Attachments:" section a page ends with: the file as stored, and its name in Confluence. */
const LISTED_ATTACHMENT = /<a\s[^>]*href="(attachments\/\d+\/[^"?#]+)"[^>]*>([^<]+)<\/a>/gi;

/**
 * The attachments' own names, read from each page's "Attachments:" section, by path (the export stores them under
 * ids: `attachments/123/456.png` is `diagram.png`).
 */
async function attachmentNames(files: ImportFiles, pages: PlannedPage[]): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const page of pages) {
    if (!page.attachments?.length || !page.body) continue;
    const html = await files.text(page.body.path);
    const section = html.search(/id="attachments"/);
    if (section < 0) continue;
    for (const [, href, text] of html.slice(section).matchAll(LISTED_ATTACHMENT)) {
      const path = relativeTarget(page.body.path, decodeEntities(href));
      const name = decodeEntities(text).trim();
      if (path && name && files.has(path)) names[path] = name;
    }
  }
  return names;
}

/** Files the export carries for its own pages' looks (styles, icons, thumbnails) and the index: not content. */
function exportMachinery(files: ImportFiles, folder: string): string[] {
  const own = ['styles/', 'images/', 'attachments/thumbnails/'].map((f) => inFolder(folder, f));
  return files.paths.filter((p) => p === inFolder(folder, INDEX) || own.some((prefix) => p.startsWith(prefix)));
}

async function planSpace(files: ImportFiles, warn: (w: Warning) => void): Promise<ImportPlan & { fileNames: Record<string, string>; ignored: string[] }> {
  const folder = exportFolder(files) ?? '';
  const indexPath = inFolder(folder, INDEX);
  const tree = readSpaceIndex(await files.text(indexPath));
  if (!tree) warn({ path: indexPath, message: 'has no "Available Pages:" list; the pages were imported side by side, without their tree' });
  const attachments = attachmentsById(files, folder);
  const pages: PlannedPage[] = [];
  const planned = new Set<string>();
  const add = (path: string, title: string, parentKey: string | null) => {
    const id = pageIdOf(path);
    pages.push({ key: path, title, parentKey, body: { path, kind: 'confluence' }, attachments: (id && attachments.get(id)) || [] });
    planned.add(path);
  };
  const visit = (entries: IndexEntry[], parentKey: string | null) => {
    for (const entry of entries) {
      const path = relativeTarget(indexPath, entry.href);
      if (!path || !files.has(path)) {
        warn({
          path: indexPath,
          message: `lists the page "${entry.title}" (${entry.href}) but the export has no such file; its child pages were put under its parent`,
        });
        visit(entry.children, parentKey);
      } else if (planned.has(path)) {
        warn({ path: indexPath, message: `lists the page "${entry.title}" twice; imported once` });
      } else {
        add(path, entry.title, parentKey);
        visit(entry.children, path);
      }
    }
  };
  visit(tree ?? [], null);
  const unlisted = pageFiles(files, folder)
    .filter((p) => !planned.has(p))
    .sort(byName.compare);
  for (const path of unlisted) {
    if (tree) warn({ path, message: 'is not in the page tree of index.html; imported at the top' });
    add(path, await titleFromFile(files, path), null);
  }
  return { pages, fileNames: await attachmentNames(files, pages), ignored: exportMachinery(files, folder) };
}

export const confluenceSource: ImportSource = {
  name: 'confluence',
  detect(files) {
    // Beside its index.html every page of an export is named by its id; a site's `page_2.html` has an `about.html`.
    const folder = exportFolder(files);
    if (folder === null) return false;
    const beside = files.paths.filter((p) => folderOf(p) === folder && p.endsWith('.html') && posix.basename(p) !== INDEX);
    return beside.length > 0 && beside.every((p) => PAGE_FILE.test(posix.basename(p)));
  },
  plan: planSpace,
  convert: (body) => convertConfluencePage(body.text ?? ''),
  resolve(fromPath, ref, files) {
    const target = relativeTarget(fromPath, ref);
    if (target !== null) {
      if (files.has(target)) return target;
      // A page renamed after the link was written still has its id.
      const id = pageIdOf(target);
      return (id && pageFileById(files).get(id)) || target;
    }
    const site = SITE_PAGE_LINK.exec(ref);
    const id = site?.[1] ?? site?.[2];
    return (id && pageFileById(files).get(id)) || null;
  },
};
