import { htmlToDocument } from '../../../editor/html.js';
import { documentToText, markdownToDocument } from '../../../editor/index.js';
import { MANIFEST_PATH, type Manifest } from '../../exports/exports.manifest.js';
import { planFolderTree } from './folders.js';
import { frontMatterTitle, splitFrontMatter } from './front-matter.js';
import { extensionOf, relativeTarget } from './paths.js';
import type { Converted, ImportFiles, ImportPlan, ImportSource, PageBody, Warning } from './source.js';

/**
 * A folder of Markdown files, kb's own export included. With kb's `kb-manifest.json` the tree, titles and sibling
 * order come from it exactly, and each page's attachments are the files it lists (used or not); without it, the
 * folder layout says it (see folders.ts) and a page's title is its front matter `title` or its file name.
 */

const PAGE = /\.(md|markdown)$/i;

export function isMarkdownPage(path: string): boolean {
  return PAGE.test(path);
}

/** A Markdown file (front matter dropped) as a document. */
export function convertMarkdown(text: string): Converted {
  return { doc: markdownToDocument(splitFrontMatter(text).body), warnings: [] };
}

const FIRST_LINE_H1 = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/;

/** The text of a `# Heading` on the body's first line (front matter aside), as the page would show it, or null. */
export function leadingHeading(text: string): string | null {
  const match = FIRST_LINE_H1.exec(splitFrontMatter(text).body);
  if (!match) return null;
  const doc = markdownToDocument(match[1]) as { content?: unknown[] };
  const title = documentToText(doc).trim();
  return title || null;
}

/**
 * A plain Markdown page: its title is its front matter `title`, else its leading `# Heading` (as Outline and Notion
 * write pages), else its file name; a leading heading that says the title is not repeated in the content.
 */
export function markdownTitle(text: string): string | null {
  return frontMatterTitle(text) ?? leadingHeading(text);
}

function convertPlainMarkdown(text: string): Converted {
  const converted = convertMarkdown(text);
  const heading = leadingHeading(text);
  const title = frontMatterTitle(text) ?? heading;
  const content = (converted.doc as { content?: unknown[] }).content ?? [];
  if (heading !== null && heading === title && content.length > 1) converted.doc = { ...converted.doc, content: content.slice(1) };
  return converted;
}

/** kb's own HTML page (its export's): the text exactly as kb wrote it, runs of spaces included. */
export function convertHtml(text: string): Converted {
  const { doc, dropped } = htmlToDocument(text, { preserveWhitespace: true });
  return { doc, warnings: dropped };
}

/** kb's `kb-manifest.json`, when the upload has one that reads as such. */
export async function readManifest(files: ImportFiles): Promise<Manifest | null> {
  if (!files.has(MANIFEST_PATH)) return null;
  try {
    const manifest = JSON.parse(await files.text(MANIFEST_PATH)) as Manifest;
    return manifest?.kind === 'kb-export' && Array.isArray(manifest.pages) ? manifest : null;
  } catch {
    return null;
  }
}

/** The tree, titles, sibling order and attachments of a kb export, as its manifest lists them (pages of kind `kb-markdown` or `kb-html`). */
export function planFromManifest(manifest: Manifest, files: ImportFiles, warn: (w: Warning) => void): ImportPlan {
  const pathOf = new Map(manifest.pages.map((p) => [p.id, p.path]));
  const pages: ImportPlan['pages'] = [];
  const planned = new Set<string>();
  for (const page of manifest.pages) {
    const parentKey = page.parentId ? (pathOf.get(page.parentId) ?? null) : null;
    if (parentKey !== null && !planned.has(parentKey)) continue; // its parent was left out: so is it (reported there)
    if (!files.has(page.path)) {
      warn({ path: page.path, message: 'listed in kb-manifest.json but missing from the zip; left out with its children' });
      continue;
    }
    planned.add(page.path);
    // kb's own pages: the content as it was (a heading that repeats the title is the author's, not the exporter's).
    const kind = extensionOf(page.path) === '.html' ? 'kb-html' : 'kb-markdown';
    pages.push({
      key: page.path,
      title: page.title,
      ...(typeof page.icon === 'string' ? { icon: page.icon } : {}),
      parentKey,
      body: { path: page.path, kind },
      attachments: page.attachments.map((a) => a.path).filter((p) => files.has(p)),
      attachmentDetails: Object.fromEntries(page.attachments.map((a) => [a.path, { filename: a.filename, contentType: a.contentType }])),
    });
    for (const a of page.attachments)
      if (!files.has(a.path)) warn({ path: a.path, message: `attachment ${a.filename} is listed in kb-manifest.json but missing from the zip` });
  }
  return { pages };
}

export const markdownSource: ImportSource = {
  name: 'markdown',
  detect: (files) => files.has(MANIFEST_PATH) || files.paths.some(isMarkdownPage),
  async plan(files, warn) {
    const manifest = await readManifest(files);
    if (manifest) return planFromManifest(manifest, files, warn);
    const pages = await planFolderTree(files, {
      isPage: isMarkdownPage,
      kind: () => 'markdown',
      titleOf: async (path) => (files.size(path) <= 1024 * 1024 ? markdownTitle(await files.text(path)) : null),
    });
    return { pages };
  },
  convert(body: PageBody): Converted {
    const text = body.text ?? '';
    if (body.kind === 'kb-html') return convertHtml(text);
    return body.kind === 'kb-markdown' ? convertMarkdown(text) : convertPlainMarkdown(text);
  },
  resolve(fromPath, ref, files) {
    const target = relativeTarget(fromPath, ref);
    if (target === null) return null;
    if (files.has(target)) return target;
    // `[Setup](Guide/Setup)` without its extension, as wikis and some editors write it.
    for (const ext of ['.md', '.markdown']) if (files.has(`${target}${ext}`)) return `${target}${ext}`;
    return target;
  },
};
