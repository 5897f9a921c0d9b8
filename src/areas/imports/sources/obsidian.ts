import { posix } from 'node:path';
import { markdownToDocument } from '../../../editor/index.js';
import { planFolderTree } from './folders.js';
import { splitFrontMatter } from './front-matter.js';
import { isMarkdownPage } from './markdown.js';
import { hasWikilinks, rewriteObsidianMarkdown } from './obsidian-wikilinks.js';
import { decodePath, folderOf, relativeTarget, stemOf } from './paths.js';
import type { Converted, ImportFiles, ImportSource, PageBody, PlannedPage } from './source.js';

/**
 * An Obsidian vault: notes (`.md`) in folders, their images and files anywhere, and the app's settings in
 * `.obsidian/` (left out, with every other dot-folder such as `.trash/`). Folders become parent pages as for
 * Markdown (folders.ts); a folder's page is also the "folder note" inside it named like the folder
 * (`Guide/Guide.md`), as Obsidian's folder-note plugins lay it out. A note's title is its file name (or a front
 * matter `title`). Front matter is not shown (Obsidian shows it as properties), except its `tags`, kept as a
 * `Tags:` line at the top so that they are not lost. Links are resolved as Obsidian does (see `resolve`), also
 * through the front matter's `aliases`.
 */

/** What `resolve` answers for a name no file has: a page matches it when one of its notes has that alias. */
const ALIAS = 'obsidian-alias:';
const SCAN_BYTES = 1024 * 1024;
/** How many notes `detect` reads looking for wikilinks. */
const DETECT_NOTES = 50;

const hidden = (folder: string) => folder.split('/').some((part) => part.startsWith('.'));

function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
  return typeof value === 'string' ? value.split(/[,\s]+/) : [];
}

/** Front matter `tags` (a list, or a string of them) as `#tag` words. */
function tagsLine(data: Record<string, unknown>): string | null {
  const tags = listOf(data.tags ?? data.tag)
    .map((t) => t.trim().replace(/^#/, ''))
    .filter(Boolean);
  return tags.length ? `Tags: ${tags.map((t) => `#${t}`).join(' ')}` : null;
}

export function convertObsidianNote(body: PageBody): Converted {
  const { data, body: text } = splitFrontMatter(body.text ?? '');
  const { markdown, warnings } = rewriteObsidianMarkdown(text);
  const tags = tagsLine(data);
  return { doc: markdownToDocument(tags ? `${tags}\n\n${markdown}` : markdown), warnings };
}

/** A folder page without content of its own takes the note inside it named like the folder (a "folder note"). */
function adoptFolderNotes(pages: PlannedPage[]): PlannedPage[] {
  const dropped = new Set<PlannedPage>();
  for (const folderPage of pages) {
    if (folderPage.body || !folderPage.key.endsWith('/')) continue;
    const folder = folderPage.key.slice(0, -1);
    const note = pages.find(
      (p) => p.parentKey === folderPage.key && p.body && folderOf(p.body.path) === folder && stemOf(p.body.path) === posix.basename(folder),
    );
    if (!note?.body) continue;
    folderPage.body = note.body;
    folderPage.title = note.title;
    folderPage.aliases = [...(folderPage.aliases ?? []), note.key, ...(note.aliases ?? [])];
    for (const p of pages) if (p.parentKey === note.key) p.parentKey = folderPage.key;
    dropped.add(note);
  }
  return pages.filter((p) => !dropped.has(p));
}

interface Vault {
  /** Files by their lower-cased name, every file of the vault outside dot-folders. */
  byName: Map<string, string[]>;
  folders: Set<string>;
}

const vaults = new WeakMap<ImportFiles, Vault>();
function vaultOf(files: ImportFiles): Vault {
  let vault = vaults.get(files);
  if (!vault) {
    const byName = new Map<string, string[]>();
    const folders = new Set<string>();
    for (const path of files.paths) {
      if (hidden(folderOf(path))) continue;
      const name = posix.basename(path).toLowerCase();
      byName.set(name, [...(byName.get(name) ?? []), path]);
      for (let folder = folderOf(path); folder && !folders.has(folder); folder = folderOf(folder)) folders.add(folder);
    }
    vault = { byName, folders };
    vaults.set(files, vault);
  }
  return vault;
}

/**
 * The file a link names as Obsidian finds it: a path ending with what is written (with or without `.md`), case
 * aside; of several, the shortest path (then the first in name order).
 */
function findInVault(files: ImportFiles, written: string): string | null {
  const wanted = written.replace(/^\.?\//, '').toLowerCase();
  const name = posix.basename(wanted);
  const candidates = [...(vaultOf(files).byName.get(name) ?? []), ...(vaultOf(files).byName.get(`${name}.md`) ?? [])];
  const matching = candidates.filter((path) => {
    const lower = path.toLowerCase();
    return [wanted, `${wanted}.md`].some((end) => lower === end || lower.endsWith(`/${end}`));
  });
  matching.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return matching[0] ?? null;
}

export const obsidianSource: ImportSource = {
  name: 'obsidian',
  async detect(files) {
    if (files.paths.some((p) => p.startsWith('.obsidian/') || p.includes('/.obsidian/'))) return true;
    // Without its settings folder, a vault shows itself by its wikilinks (a few notes are enough to tell).
    const notes = files.paths.filter((p) => isMarkdownPage(p) && files.size(p) <= SCAN_BYTES).slice(0, DETECT_NOTES);
    for (const path of notes) if (hasWikilinks(await files.text(path))) return true;
    return false;
  },
  async plan(files) {
    const aliases = new Map<string, string[]>();
    const pages = await planFolderTree(files, {
      isPage: (path) => isMarkdownPage(path) && !hidden(folderOf(path)),
      kind: () => 'obsidian',
      skipFolder: hidden,
      async titleOf(path) {
        if (files.size(path) > SCAN_BYTES) return null;
        const { data } = splitFrontMatter(await files.text(path));
        aliases.set(
          path,
          listOf(data.aliases ?? data.alias).map((a) => `${ALIAS}${a.trim().toLowerCase()}`),
        );
        return typeof data.title === 'string' && data.title.trim() ? data.title.trim() : null;
      },
    });
    for (const page of pages) if (page.body) page.aliases = [...(page.aliases ?? []), ...(aliases.get(page.body.path) ?? [])];
    return { pages: adoptFolderNotes(pages) };
  },
  convert: convertObsidianNote,
  resolve(fromPath, ref, files) {
    const target = relativeTarget(fromPath, ref);
    if (target === null) return null;
    if (files.has(target)) return target;
    if (files.has(`${target}.md`)) return `${target}.md`;
    const written = decodePath(ref.trim().split(/[?#]/)[0]);
    const found = findInVault(files, written);
    if (found) return found;
    // A folder without a note of its own is still a page (its path is an alias of it).
    const folder = target.replace(/\/$/, '');
    return vaultOf(files).folders.has(folder) ? folder : `${ALIAS}${written.toLowerCase()}`;
  },
};
