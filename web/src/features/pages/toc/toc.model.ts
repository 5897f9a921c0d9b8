import type { Node } from '@tiptap/pm/model';

export interface TocHeading {
  level: number;
  text: string;
  /** The heading's position in the document (for `view.nodeDOM`). */
  pos: number;
}

/**
 * The h1–h3 headings of a document, in order. The walk does not enter text blocks (paragraphs, code, headings), so it
 * costs one step per block, not per character: a 1 MB page of ~4,000 blocks is a few milliseconds.
 */
export function headingsOf(doc: Node, maxLevel = 3): TocHeading[] {
  const found: TocHeading[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'heading') {
      const level = Number(node.attrs.level) || 1;
      const text = node.textContent.trim();
      if (level <= maxLevel && text) found.push({ level, text, pos });
      return false;
    }
    return !node.isTextblock && !node.isAtom;
  });
  return found;
}

/** Whether two lists of headings show the same entries (positions shift with every keystroke above them). */
export function sameHeadings(a: TocHeading[], b: TocHeading[]): boolean {
  return a.length === b.length && a.every((h, i) => h.level === b[i].level && h.text === b[i].text && h.pos === b[i].pos);
}
