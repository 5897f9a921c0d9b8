import type { Node as PMNode } from '@tiptap/pm/model';
import { embedProviderName } from './blocks.js';
import { dayInWords } from './dates.js';
import { readDocument } from './validate.js';

/** What a leaf node reads as in plain text. */
function leafText(node: PMNode): string {
  switch (node.type.name) {
    case 'hardBreak':
      return '\n';
    case 'mention':
      return `@${node.attrs.label ?? node.attrs.id}`;
    case 'mathInline':
    case 'mathBlock':
      return node.attrs.latex ?? '';
    case 'image':
      // Found by its alt text and its caption.
      return [node.attrs.alt, node.attrs.caption].filter(Boolean).join(' ');
    case 'inlineImage':
      return node.attrs.alt ?? '';
    case 'embed':
      // Found by its provider's name and its link (the words of its address: host, path, ids).
      return `${embedProviderName(node.attrs)} ${node.attrs.src ?? ''}`;
    case 'date':
      // Found by the words of the day ("7 December 2026").
      return dayInWords(String(node.attrs.date ?? ''));
    case 'footnote':
      // Its note, in brackets after the word it belongs to (so the two words do not run together).
      return node.attrs.text ? ` (${node.attrs.text})` : '';
    case 'linkCard':
      // Found by the title read from the page when the card was made, and by its link.
      return [node.attrs.title, node.attrs.url].filter(Boolean).join(' ');
    case 'fileAttachment':
      return node.attrs.name ?? '';
    case 'video':
    case 'audio':
      return node.attrs.title ?? '';
    default:
      return '';
  }
}

/**
 * Plain text of a document (stored JSON, see `readDocument`, or a node), for search: blocks (paragraphs, headings,
 * list items, cells) separated by newlines.
 */
export function documentToText(doc: PMNode | unknown): string {
  const node = isNode(doc) ? doc : readDocument(doc);
  return node.textBetween(0, node.content.size, '\n', leafText);
}

export function isNode(v: unknown): v is PMNode {
  return typeof v === 'object' && v !== null && 'nodeSize' in v && 'type' in v && typeof (v as PMNode).textBetween === 'function';
}
