import { calloutTypeOf } from '../../../editor/blocks.js';
import { elementToDocument, withHtmlDocument } from '../../../editor/html.js';
import type { Converted } from './source.js';

/**
 * One page of a Confluence HTML export as a document. The page's own content is `#main-content`; around it the
 * export adds chrome (breadcrumbs, the title heading, "Created by…", the "Attachments:" and comments sections, the
 * footer), removed when a page has no `#main-content`. Confluence's macros are rewritten into what the schema holds
 * (a code macro into a code block with its language, `mermaid` included; an info, note, tip, warning, success or
 * error panel into a callout of that kind; an expand macro into a toggle; a task list into a task list); those with
 * nothing to carry (a table of contents, a page tree) are left out with a warning.
 */

const CHROME = ['#breadcrumb-section', '#title-heading', '.page-metadata', '#footer', '#comments-section', '.pageSection.group', '#likes-and-labels-container'];

/** Macros whose output means nothing outside Confluence: left out, named once in the warnings. */
const LEFT_OUT: [selector: string, what: string][] = [
  ['.toc-macro, .client-side-toc-macro', 'the table of contents macro was left out (the headings are all there)'],
  ['.plugin_pagetree, .pagetree-macro', 'the page tree macro was left out (the imported pages keep their tree)'],
  ['.recently-updated, .recently-updated-concise', 'the recently updated macro was left out'],
  ['.contributors-macro, .content-report-table-macro', 'a report macro was left out'],
];

/** Macros that render nothing by design (an anchor is a link target): no warning when they are empty. */
const SILENT_MACROS = new Set(['anchor', 'children', 'excerpt']);

/** A code macro's language from `brush: java; gutter: false`, when it names one the schema accepts. */
function brushOf(pre: Element): string | null {
  const params = pre.getAttribute('data-syntaxhighlighter-params') ?? '';
  const brush = /(?:^|;)\s*brush:\s*([^;\s]+)/.exec(params)?.[1]?.toLowerCase() ?? null;
  if (!brush || brush === 'none' || brush === 'text' || brush === 'plain') return null;
  const named: Record<string, string> = {
    js: 'javascript',
    py: 'python',
    sh: 'bash',
    shell: 'bash',
    cs: 'csharp',
    'c#': 'csharp',
    ps: 'powershell',
    yml: 'yaml',
  };
  const language = named[brush] ?? brush;
  return /^[^\s`]{1,64}$/.test(language) ? language : null;
}

/** A paragraph holding `text` in bold (a panel's or a code block's title). */
function boldLine(document: Document, text: string): Element {
  const p = document.createElement('p');
  const strong = document.createElement('strong');
  strong.textContent = text;
  p.append(strong);
  return p;
}

/** The code macro, and the noformat macro (a code block without a language). */
const CODE_MACRO = 'div.code.panel, div.preformatted.panel';

function rewriteCodeMacros(root: Element) {
  const document = root.ownerDocument;
  for (const macro of root.querySelectorAll(`${CODE_MACRO}, pre.syntaxhighlighter-pre`)) {
    if (!macro.isConnected) continue; // the enclosing macro was rewritten already
    const container = macro.closest(CODE_MACRO) ?? macro;
    const pre = container.matches('pre') ? container : container.querySelector('pre');
    if (!pre) continue;
    const code = document.createElement('code');
    const language = brushOf(pre);
    if (language) code.className = `language-${language}`;
    code.textContent = pre.textContent ?? '';
    const block = document.createElement('pre');
    block.append(code);
    const title = container.querySelector('.codeHeader')?.textContent?.trim();
    container.replaceWith(...(title ? [boldLine(document, title)] : []), block);
  }
}

/**
 * Info, note, tip, warning, success and error macros (`confluence-information-macro-<kind>`) become callouts of the
 * type `calloutTypeOf` reads in their kind (`information` is info, `tip` success, `error` danger), their title a
 * bold first line; the kind's icon is the callout's badge in kb. A plain panel (a box in the author's colours,
 * without a kind) stays a quote led by its title in bold.
 */
function rewritePanels(root: Element) {
  const document = root.ownerDocument;
  for (const panel of root.querySelectorAll('.confluence-information-macro, div.panel:not(.code)')) {
    if (!panel.isConnected) continue;
    const kind = panel.matches('.confluence-information-macro')
      ? (/confluence-information-macro-(\w+)/.exec(panel.className)?.[1] ?? panel.getAttribute('data-macro-name') ?? 'info')
      : null;
    const titleEl = panel.querySelector(':scope > .title, :scope > .panelHeader');
    const title = titleEl?.textContent?.trim();
    const body = panel.querySelector('.confluence-information-macro-body, .panelContent') ?? panel;
    const box = document.createElement(kind ? 'aside' : 'blockquote');
    if (kind) box.setAttribute('data-callout', calloutTypeOf(kind));
    if (title) box.append(boldLine(document, title));
    const isIcon = (n: ChildNode) => n.nodeType === 1 && (n as Element).matches('.confluence-information-macro-icon');
    box.append(...[...body.childNodes].filter((n) => n !== titleEl && !isIcon(n)));
    panel.replaceWith(box);
  }
}

/** The expand macro as a toggle: its title the summary, its content the toggle's. */
function rewriteExpands(root: Element) {
  const document = root.ownerDocument;
  for (const expand of root.querySelectorAll('.expand-container')) {
    if (!expand.isConnected) continue;
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = expand.querySelector(':scope > .expand-control .expand-control-text')?.textContent?.trim() ?? '';
    const content = document.createElement('div');
    content.setAttribute('data-details-content', '');
    content.append(...(expand.querySelector(':scope > .expand-content')?.childNodes ?? []));
    details.append(summary, content);
    expand.replaceWith(details);
  }
}

/** Confluence's task lists, in the markup the schema's task list reads. */
function rewriteTaskLists(root: Element) {
  for (const list of root.querySelectorAll('ul.inline-task-list')) {
    list.setAttribute('data-type', 'taskList');
    for (const item of list.children) {
      if (item.tagName !== 'LI') continue;
      item.setAttribute('data-type', 'taskItem');
      item.setAttribute('data-checked', item.classList.contains('checked') ? 'true' : 'false');
    }
  }
}

/** Emoticons become their character; Confluence's own icons (bullets, content-type icons) go; a picture keeps its alignment. */
function rewriteImages(root: Element) {
  for (const img of root.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (img.classList.contains('emoticon')) {
      const code = Number.parseInt(img.getAttribute('data-emoji-id') ?? '', 16);
      const text = img.getAttribute('data-emoji-fallback') || (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : img.getAttribute('alt') || '');
      img.replaceWith(root.ownerDocument.createTextNode(text));
    } else if (src.startsWith('images/icons/') || src.startsWith('attachments/thumbnails/')) {
      img.remove();
    } else {
      // The full-size file, not the scaled rendition (`?width=760`).
      const full = img.getAttribute('data-image-src');
      if (full && !/^[a-z][a-z0-9+.-]*:/i.test(full)) img.setAttribute('src', full);
      // Its alignment (`image-center`), which the block image keeps (images.ts); its width is in pixels, so not kept.
      const align = /(?:^|\s)image-(left|center|right)(?:\s|$)/.exec(img.className)?.[1];
      if (align) img.setAttribute('data-align', align);
    }
  }
}

/** A file shown as a thumbnail card becomes a link named after the file. */
function rewriteEmbeddedFiles(root: Element) {
  for (const link of root.querySelectorAll('a.confluence-embedded-file')) {
    const name =
      link.getAttribute('data-linked-resource-default-alias') || link.textContent?.trim() || (link.getAttribute('href') ?? '').split('/').pop() || 'file';
    link.textContent = name;
  }
}

/** People mentions link to the Confluence site's profiles: kept as `@Name` text. */
function rewriteUserLinks(root: Element) {
  for (const link of root.querySelectorAll('a.confluence-userlink, a.user-mention, a[data-linked-resource-type="userinfo"]')) {
    const name = (link.textContent ?? '').trim();
    link.replaceWith(root.ownerDocument.createTextNode(name.startsWith('@') ? name : `@${name}`));
  }
}

function leaveOutMacros(root: Element, warnings: Set<string>) {
  for (const [selector, what] of LEFT_OUT) {
    const found = root.querySelectorAll(selector);
    if (found.length) warnings.add(what);
    for (const el of found) el.remove();
  }
  // Any other macro that rendered nothing readable in the export.
  for (const macro of root.querySelectorAll('[data-macro-name]')) {
    if (
      !macro.isConnected ||
      SILENT_MACROS.has(macro.getAttribute('data-macro-name') ?? '') ||
      (macro.textContent ?? '').trim() ||
      macro.querySelector('img, table')
    )
      continue;
    warnings.add(`the ${macro.getAttribute('data-macro-name')} macro has no content in the export; left out`);
    macro.remove();
  }
}

export function convertConfluencePage(html: string): Converted {
  return withHtmlDocument(html, (document) => {
    let root: Element | null = document.querySelector('#main-content');
    if (!root) {
      root = document.body;
      for (const el of root.querySelectorAll(CHROME.join(','))) el.remove();
    }
    const warnings = new Set<string>();
    leaveOutMacros(root, warnings);
    rewriteCodeMacros(root);
    rewritePanels(root);
    rewriteExpands(root);
    rewriteTaskLists(root);
    rewriteImages(root);
    rewriteEmbeddedFiles(root);
    rewriteUserLinks(root);
    const { doc, dropped } = elementToDocument(root);
    return { doc, warnings: [...warnings, ...dropped] };
  });
}
