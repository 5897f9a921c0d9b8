/**
 * Who a change newly @mentions (issue 16): the people mentioned in the new content who were not mentioned in the
 * content before it, so editing a page that already mentions nine people and adding a tenth notifies only the tenth.
 * Pages hold ProseMirror JSON whose `mention` nodes carry the user id in `attrs.id`; comments hold Markdown text whose
 * mentions are written `[@Label](mention:<id>)` (src/editor/markdown.ts).
 */

const MENTION_LINK = /\]\(mention:([^)\s]+)\)/g;

/** The user ids of every mention node in a document (JSON as stored), in order of appearance, once each. */
export function mentionIdsInDocument(doc: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const { type, attrs, content } = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
    if (type === 'mention' && typeof attrs?.id === 'string' && attrs.id) found.add(attrs.id);
    if (Array.isArray(content)) for (let i = content.length - 1; i >= 0; i--) stack.push(content[i]);
  }
  return [...found];
}

/** The user ids of every mention link in Markdown text, once each. */
export function mentionIdsInText(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION_LINK)) {
    try {
      found.add(decodeURIComponent(match[1]!));
    } catch {
      found.add(match[1]!);
    }
  }
  return [...found];
}

/** Those mentioned in `after` and not in `before` (either a document or Markdown text; `before` null for new content). */
export function newlyMentioned(before: unknown, after: unknown): string[] {
  const ids = (content: unknown) => (typeof content === 'string' ? mentionIdsInText(content) : mentionIdsInDocument(content));
  const already = new Set(before == null ? [] : ids(before));
  return ids(after).filter((id) => !already.has(id));
}
