import { posix } from 'node:path';
import { type DatabaseBody, parseCsv } from './notion.csv.js';
import { htmlIcon, htmlLinkTargets, htmlTitle } from './notion.html.js';
import { markdownLinkTargets, markdownTitle } from './notion.markdown.js';
import { childFolderOf, notionIdAlias, notionName } from './notion.names.js';
import { folderOf, relativeTarget } from './paths.js';
import type { ImportFiles, ImportPlan, PlannedPage, Warning } from './source.js';

/**
 * The page tree of a Notion export. A page's file sits beside the folder of its children (named alike); a database
 * is a CSV (its `_all.csv` preferred: every row, not one view's) beside the folder of its row pages. A folder with
 * no file of its own becomes an empty page when Notion named it (an id in its name), and is passed through when it
 * is not (the folder a zip tool wraps the export in).
 *
 * Order: Notion's file names carry none, but a page links to each of its child pages in its content, in the order the
 * page shows them, and a database's CSV lists its rows in the view's order. So siblings a parent links to (or lists)
 * come first, in that order; the rest after them, alphabetically by title.
 *
 * Titles come from inside the files (`# Title`, `<h1 class="page-title">`): file names lose characters Notion cannot
 * put in one (`/`, `:`…). Files that are neither pages nor databases (images, PDFs…) are attachments of the page
 * whose folder holds them, so an unlinked one is kept too.
 */

/** Page files larger than this are not read while planning: named after their file, their links not used to order. */
const READ_LIMIT = 8 * 1024 * 1024;
/** The longest icon a page takes (as the pages API's `icon`). */
const MAX_ICON = 100;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

interface Entry {
  page: PlannedPage & { aliases: string[]; attachments: string[] };
  /** The upload paths the page links to, in order. */
  links: string[];
  /** A database's rows: their titles, in the CSV's order. */
  rows?: string[][];
  children: Entry[];
}

function entry(key: string, title: string, page: Partial<PlannedPage> = {}): Entry {
  return { page: { key, title, parentKey: null, body: null, ...page, aliases: page.aliases ?? [], attachments: [] }, links: [], children: [] };
}

const PAGE_FILE = /\.(md|html)$/i;

async function readable(files: ImportFiles, path: string): Promise<string | null> {
  return files.size(path) <= READ_LIMIT ? files.text(path) : null;
}

/** Page icons are emoji: one of those is kept; a picture (uploaded, linked, a custom emoji) is named in a warning. */
function pageIcon(html: string, path: string, title: string, warn: (w: Warning) => void): string | undefined {
  const icon = htmlIcon(html);
  if (!icon) return undefined;
  if ('emoji' in icon && icon.emoji.length <= MAX_ICON) return icon.emoji;
  const what = 'image' in icon ? `an image (${icon.image.slice(0, 200)})` : 'too long';
  warn({ path, message: `the icon of the page "${title}" is ${what}; a page's icon can only be an emoji, so it was not kept` });
  return undefined;
}

async function pageEntry(files: ImportFiles, path: string, warn: (w: Warning) => void): Promise<Entry> {
  const name = notionName(path);
  const folder = childFolderOf(path);
  const text = await readable(files, path);
  const html = name.kind === 'html';
  const title = (text !== null && (html ? htmlTitle(text) : markdownTitle(text))) || name.title;
  const aliases = [folder, `${folder}/`, ...(name.id ? [notionIdAlias(name.id)] : [])];
  const icon = html && text !== null ? pageIcon(text, path, title, warn) : undefined;
  const e = entry(path, title, { body: { path, kind: html ? 'notion-html' : 'notion-md' }, aliases, ...(icon ? { icon } : {}) });
  e.links = text === null ? [] : (html ? htmlLinkTargets(text) : markdownLinkTargets(text)).map((ref) => relativeTarget(path, ref) ?? '');
  return e;
}

/** One database per CSV folder: the `_all.csv` when there is one, the other CSVs of it as aliases. */
async function databaseEntry(files: ImportFiles, csvs: string[]): Promise<Entry> {
  const chosen = csvs.find((p) => notionName(p).all) ?? csvs[0];
  const name = notionName(chosen);
  const folder = childFolderOf(chosen);
  const aliases = [...csvs.filter((p) => p !== chosen), folder, `${folder}/`, ...(name.id ? [notionIdAlias(name.id)] : [])];
  const e = entry(chosen, name.title, { aliases });
  const text = await readable(files, chosen);
  e.rows = text === null ? [] : parseCsv(text);
  return e;
}

/** A link to `to` as written in the file at `from`: relative, each part percent-encoded (as Notion writes them). */
function relativeHref(from: string, to: string): string {
  return posix
    .relative(folderOf(from) || '.', to)
    .split('/')
    .map(encodeURIComponent)
    .join('/');
}

/** The database's rows matched to its row pages by title (each page once), which also orders them. */
function linkRows(db: Entry) {
  const rows = db.rows ?? [];
  const byTitle = new Map<string, Entry[]>();
  for (const child of db.children) {
    if (child.page.body?.kind === 'notion-md') child.page.body.kind = 'notion-md-row';
    const same = byTitle.get(child.page.title);
    if (same) same.push(child);
    else byTitle.set(child.page.title, [child]);
  }
  const rowLinks = rows.slice(1).map((row) => {
    const child = byTitle.get((row[0] ?? '').trim())?.shift();
    if (!child) return null;
    db.links.push(child.page.key);
    return relativeHref(db.page.key, child.page.key);
  });
  const body: DatabaseBody = { rows, rowLinks };
  db.page.body = { path: db.page.key, kind: 'notion-csv', text: JSON.stringify(body) };
  db.rows = undefined;
}

function sortChildren(parent: Entry | null, children: Entry[]) {
  const position = new Map<string, number>();
  parent?.links.forEach((key, i) => {
    if (!position.has(key)) position.set(key, i);
  });
  const at = (e: Entry) => position.get(e.page.key) ?? Number.POSITIVE_INFINITY;
  children.sort((a, b) => at(a) - at(b) || collator.compare(a.page.title, b.page.title));
}

export async function planNotion(files: ImportFiles, warn: (w: Warning) => void): Promise<ImportPlan> {
  const owners = new Map<string, Entry>(); // a page's child folder → the page
  const all: Entry[] = [];
  const add = (e: Entry, folder: string) => {
    all.push(e);
    if (!owners.has(folder)) owners.set(folder, e);
  };
  for (const path of files.paths.filter((p) => PAGE_FILE.test(p))) add(await pageEntry(files, path, warn), childFolderOf(path));

  const databases = new Map<string, string[]>();
  const others: string[] = [];
  for (const path of files.paths) {
    if (PAGE_FILE.test(path)) continue;
    const name = notionName(path);
    if (name.kind !== 'csv' || !name.id) others.push(path);
    else if (databases.has(childFolderOf(path))) databases.get(childFolderOf(path))?.push(path);
    else databases.set(childFolderOf(path), [path]);
  }
  for (const [folder, csvs] of databases) {
    const page = owners.get(folder);
    if (page)
      page.page.aliases.push(...csvs); // a database that has a page file of its own: its CSV means that page
    else add(await databaseEntry(files, csvs), folder);
  }

  const roots: Entry[] = [];
  /** The page a folder's contents belong under (null: the top of the import). */
  const ownerOf = (folder: string): Entry | null => {
    if (folder === '') return null;
    const owner = owners.get(folder);
    if (owner) return owner;
    const parent = ownerOf(folderOf(folder));
    const name = notionName(folder);
    if (!name.id) return parent; // not a folder Notion made: look through it
    const made = entry(`${folder}/`, name.title, { aliases: [folder] });
    made.page.parentKey = parent?.page.key ?? null;
    (parent?.children ?? roots).push(made);
    owners.set(folder, made);
    return made;
  };
  for (const e of all) {
    const parent = ownerOf(folderOf(e.page.key));
    e.page.parentKey = parent?.page.key ?? null;
    (parent?.children ?? roots).push(e);
  }
  for (const path of others) {
    const owner = ownerOf(folderOf(path));
    if (owner) owner.page.attachments.push(path);
    if (/\.zip$/i.test(path))
      warn({ path, message: 'a zip inside the export was not opened (Notion splits large exports into parts): import each part on its own' });
  }

  // Targets as page keys, so that a link to a page's folder or twin counts as a link to the page.
  const keyOf = new Map<string, string>();
  for (const e of [...owners.values(), ...all]) for (const k of [e.page.key, ...e.page.aliases]) if (!keyOf.has(k)) keyOf.set(k, e.page.key);
  const pages: PlannedPage[] = [];
  const visit = (parent: Entry | null, children: Entry[]) => {
    if (parent?.rows) linkRows(parent);
    if (parent) parent.links = parent.links.map((target) => keyOf.get(target) ?? target);
    sortChildren(parent, children);
    for (const child of children) {
      pages.push(child.page);
      visit(child, child.children);
    }
  };
  visit(null, roots);
  return { pages };
}
