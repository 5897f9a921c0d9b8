import type { DocJson } from '../../db/tables/pages.js';

/** The values a new page's placeholders take. */
export interface PlaceholderValues {
  /** YYYY-MM-DD: the caller's today. */
  date: string;
  /** The caller's name. */
  author: string;
  /** The new page's title. */
  title: string;
}

/** `{{date}}`, `{{author}}`, `{{title}}`, spaces inside the braces allowed, any case; other `{{…}}` stay as written. */
const PLACEHOLDER = /\{\{\s*(date|author|title)\s*\}\}/gi;

export function fillText(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name.toLowerCase() as keyof PlaceholderValues]);
}

interface JsonNode {
  type?: string;
  text?: string;
  marks?: Array<{ type?: string }>;
  content?: JsonNode[];
  [key: string]: unknown;
}

/**
 * The document with the placeholders in its text filled. Code is left as written, code blocks and inline code alike:
 * code is where `{{…}}` means something else (Handlebars, Jinja, Go templates), and a template that documents those
 * must keep them. Attributes (link targets, mentions) are never touched. Returns a new tree; the input is unchanged.
 */
export function fillDocument(doc: DocJson, values: PlaceholderValues): DocJson {
  const walk = (node: JsonNode): JsonNode => {
    if (node.type === 'codeBlock') return node;
    if (node.type === 'text' && typeof node.text === 'string') {
      if (node.marks?.some((m) => m.type === 'code')) return node;
      const text = fillText(node.text, values);
      return text === node.text ? node : { ...node, text };
    }
    // A placeholder filled with nothing leaves no empty text node behind (ProseMirror refuses those).
    if (Array.isArray(node.content)) return { ...node, content: node.content.map(walk).filter((n) => !(n.type === 'text' && n.text === '')) };
    return node;
  };
  return walk(doc as JsonNode) as DocJson;
}
