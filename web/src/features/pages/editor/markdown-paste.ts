import { markdownToDocument } from '@editor/markdown';

/**
 * Does plain text look like Markdown worth converting? A heading, a list, a quote, a fence, a table row or a task item
 * at the start of a line, or inline emphasis/links. Plain prose stays plain (converting it would gain nothing).
 */
const BLOCK = /^(#{1,6}\s|\s*([-*+]|\d+[.)])\s|>\s|```|~~~|\|.*\|\s*$|\s*[-*]\s\[[ xX]\]\s)/m;
const INLINE = /(\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`|\[[^\]\n]+\]\([^)\s]+\))/;

export function looksLikeMarkdown(text: string): boolean {
  return BLOCK.test(text) || INLINE.test(text);
}

/**
 * The pasted Markdown as document content, with the same parser the service uses (src/editor/markdown.ts), so a
 * paste gives what a `PUT { markdown }` would. Null when it cannot be read (the paste then goes in as text).
 */
export function markdownToContent(text: string): Record<string, unknown>[] | null {
  try {
    const doc = markdownToDocument(text) as { content?: Record<string, unknown>[] };
    return doc.content?.length ? doc.content : null;
  } catch {
    return null;
  }
}
