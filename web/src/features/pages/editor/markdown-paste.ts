/**
 * Does plain text look like Markdown worth converting? A heading, a list, a quote, a fence, a table row or a task item
 * at the start of a line, or inline emphasis/links. Plain prose stays plain (converting it would gain nothing).
 */
const BLOCK = /^(:::[a-z]+|\$\$|<details[\s>]|>\s\[![a-z]+\]|#{1,6}\s|\s*([-*+]|\d+[.)])\s|>\s|```|~~~|\|.*\|\s*$|\s*[-*]\s\[[ xX]\]\s)/m;
const INLINE = /(\$[^\s$][^$\n]*[^\s$]\$|\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`|\[[^\]\n]+\]\([^)\s]+\)|\[\^[^\]\s]+\])/;

export function looksLikeMarkdown(text: string): boolean {
  return BLOCK.test(text) || INLINE.test(text);
}

type Convert = (markdown: string) => unknown;

/**
 * The service's own Markdown parser (src/editor/markdown.ts, on markdown-it: about 190 KB of code), loaded apart from
 * the editor: when the editor is first focused (a paste needs focus), or by the first paste that needs it.
 */
let convert: Convert | null = null;
let loading: Promise<Convert | null> | null = null;

export function loadMarkdownConverter(): Promise<Convert | null> {
  loading ??= import('@editor/markdown').then(
    (m) => {
      convert = m.markdownToDocument;
      return convert;
    },
    () => {
      loading = null; // a failed chunk: the next paste tries again, this one goes in as text
      return null;
    },
  );
  return loading;
}

/** The converter, when it has loaded (a paste can then be handled at once). */
export const markdownConverter = (): Convert | null => convert;

/**
 * The pasted Markdown as document content, with the same parser the service uses, so a paste gives what a
 * `PUT { markdown }` would. Null when it cannot be read (the paste then goes in as text).
 */
export function markdownToContent(text: string, markdownToDocument: Convert): Record<string, unknown>[] | null {
  try {
    const doc = markdownToDocument(text) as { content?: Record<string, unknown>[] };
    return doc.content?.length ? doc.content : null;
  } catch {
    return null;
  }
}
