import { posix } from 'node:path';

/**
 * Notion's export names every page after its title and its block id: `Roadmap 3f2a9c1e0b4d4f7a8e6c5b4a3d2e1f00.md`,
 * its children in the folder `Roadmap 3f2a9c1e0b4d4f7a8e6c5b4a3d2e1f00/` beside it. A database is
 * `Tasks <id>.csv` (and, since 2023, `Tasks <id>_all.csv` with every row, not only the view's) beside the folder of
 * its row pages. These helpers read those names.
 */

const ID = '[0-9a-f]{32}';
/** A page or database file of the export: the name, the id, the optional `_all`, the extension. */
const NOTION_FILE = new RegExp(`^(.*) (${ID})(_all)?\\.(md|html|csv)$`, 'i');
const NOTION_FOLDER = new RegExp(`^(.*) (${ID})$`, 'i');
/** A Notion address of a page (`https://www.notion.so/acme/Roadmap-3f2a…?pvs=4`, `notion.so/3f2a…`). */
const NOTION_URL = new RegExp(`^https?://(?:[\\w-]+\\.)?notion\\.(?:so|site)/(?:[^?#]*[/-])?(${ID})(?:[?#]|$)`, 'i');

export type NotionFileKind = 'md' | 'html' | 'csv';

export interface NotionName {
  /** The title as the file name carries it (Notion strips a few characters a file name cannot hold). */
  title: string;
  id: string | null;
  kind: NotionFileKind | null;
  /** A database's `_all.csv`: the same table as its `.csv`, every row included. */
  all: boolean;
}

/** Reads the name of a file (or folder) of a Notion export; names without an id keep their whole stem as title. */
export function notionName(path: string): NotionName {
  const base = posix.basename(path);
  const file = NOTION_FILE.exec(base);
  if (file) return { title: file[1].trim() || 'Untitled', id: file[2].toLowerCase(), all: !!file[3], kind: file[4].toLowerCase() as NotionFileKind };
  const folder = NOTION_FOLDER.exec(base);
  if (folder) return { title: folder[1].trim() || 'Untitled', id: folder[2].toLowerCase(), all: false, kind: null };
  const ext = /\.(md|html|csv)$/i.exec(base);
  return { title: ext ? base.slice(0, -ext[0].length) : base, id: null, all: false, kind: (ext?.[1].toLowerCase() as NotionFileKind) ?? null };
}

/** Whether a path is a page or database file of the export (for `detect`). */
export function isNotionFile(path: string): boolean {
  return NOTION_FILE.test(posix.basename(path));
}

/** The folder that holds a page's children: its file's path without the extension (and without `_all`). */
export function childFolderOf(path: string): string {
  return path.replace(/(_all)?\.(md|html|csv)$/i, '');
}

/**
 * A key every page of the import gets as an alias, `notion:<id>`, so that a link written as a Notion address
 * (what Notion writes for a mention or a link to a page) finds the page when it is part of the import.
 */
export function notionIdAlias(id: string): string {
  return `notion:${id}`;
}

/** The alias a Notion address points at, or null when `ref` is not one. */
export function notionUrlAlias(ref: string): string | null {
  const match = NOTION_URL.exec(ref.trim());
  return match ? notionIdAlias(match[1].toLowerCase()) : null;
}
