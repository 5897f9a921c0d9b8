import { elementToDocument, withHtmlDocument } from '../../../editor/html.js';
import { planFolderTree } from './folders.js';
import { FIRST_H1, firstElementText, TITLE_ELEMENT } from './html-text.js';
import { markdownSource, planFromManifest, readManifest } from './markdown.js';
import { relativeTarget } from './paths.js';
import type { Converted, ImportSource } from './source.js';

/**
 * Plain HTML: one `.html` file, or a zip of them in folders with their images. The folders make the tree as for
 * Markdown (see folders.ts; a folder's `index.html` is the folder's page). A page's title is its `<title>`, else its
 * first `<h1>`, else its file name; the content is the page's `<main>` (or its one `<article>`) when it has one,
 * so a saved site's navigation and footer stay behind, else its whole `<body>`. A first `<h1>` that repeats the
 * title is dropped, since the title is shown above the page.
 *
 * kb's own HTML export, read as `html` (someone picked "HTML" for it), is read by its manifest as `auto` would:
 * the same tree, titles and sibling order (file names carry no order) and the content as it was.
 */

const PAGE = /\.html?$/i;
/** Beyond this a file's title is not looked for while planning (its name is used). */
const TITLE_SCAN_BYTES = 1024 * 1024;

export function isHtmlPage(path: string): boolean {
  return PAGE.test(path);
}

/** `<title>`, else the first `<h1>`. */
export function htmlTitle(html: string): string | null {
  return firstElementText(html, TITLE_ELEMENT) ?? firstElementText(html, FIRST_H1);
}

const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function contentRoot(document: Document): Element {
  const main = document.querySelectorAll('main, [role="main"]');
  if (main.length === 1) return main[0];
  const articles = document.querySelectorAll('article');
  return articles.length === 1 ? articles[0] : document.body;
}

export function convertHtmlPage(html: string): Converted {
  return withHtmlDocument(html, (document) => {
    const root = contentRoot(document);
    const first = root.querySelector('h1');
    const title = squash(document.querySelector('title')?.textContent);
    // The page's title came from this heading (no <title>) or is the same words: shown once, as the title.
    if (first && (!title || squash(first.textContent) === title) && first === root.querySelector('h1, h2, h3, h4, h5, h6, p, li, table, pre')) first.remove();
    const { doc, dropped } = elementToDocument(root);
    return { doc, warnings: dropped };
  });
}

export const htmlSource: ImportSource = {
  name: 'html',
  detect: (files) => files.paths.some(isHtmlPage),
  async plan(files, warn) {
    const manifest = await readManifest(files);
    if (manifest) return planFromManifest(manifest, files, warn);
    const pages = await planFolderTree(files, {
      isPage: isHtmlPage,
      kind: () => 'html',
      titleOf: async (path) => (files.size(path) <= TITLE_SCAN_BYTES ? htmlTitle(await files.text(path)) : null),
    });
    return { pages };
  },
  convert: (body) => (body.kind.startsWith('kb-') ? markdownSource.convert(body) : convertHtmlPage(body.text ?? '')),
  resolve(fromPath, ref, files) {
    const target = relativeTarget(fromPath, ref);
    if (target === null || files.has(target)) return target;
    // `guide/` or `guide` for `guide/index.html`, as static sites link to a folder's page.
    const bare = target.replace(/\/$/, '');
    for (const candidate of [`${bare}/index.html`, `${bare}/index.htm`, `${bare}.html`]) if (files.has(candidate)) return candidate;
    return target;
  },
};
