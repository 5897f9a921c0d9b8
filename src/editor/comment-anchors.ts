/**
 * A comment's range in a page's live document (Yjs), as the web editor and the API both make it: two relative positions
 * (`Y.encodeRelativePosition`, base64), which follow any edit made around the range by anyone — typed, merged from the
 * API (ydoc.ts makes writes from outside the smallest change), or restored — and the text quoted when it was made.
 */
import * as Y from 'yjs';
import { COLLAB_FIELD } from './ydoc.js';

/** The longest encoded position accepted (a real one is ~10–30 bytes). */
export const MAX_ANCHOR_POSITION = 256;
/** The longest quoted text kept with an anchor. */
export const MAX_ANCHOR_QUOTE = 500;

const encode = (position: Y.RelativePosition) => Buffer.from(Y.encodeRelativePosition(position)).toString('base64');

/** True when `value` decodes as a Yjs relative position. */
export function isRelativePosition(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  try {
    const decoded = Y.decodeRelativePosition(new Uint8Array(Buffer.from(value, 'base64')));
    return decoded.item !== null || decoded.type !== null || decoded.tname !== null;
  } catch {
    return false;
  }
}

function* textsOf(type: Y.XmlFragment | Y.XmlElement): Generator<Y.XmlText> {
  for (const child of type.toArray()) {
    if (child instanceof Y.XmlText) yield child;
    else if (child instanceof Y.XmlElement) yield* textsOf(child);
  }
}

/** A run of text as plain characters (formatting left out; an embedded object counts as one character). */
function plainText(text: Y.XmlText): string {
  return (text.toDelta() as { insert: unknown }[]).map((op) => (typeof op.insert === 'string' ? op.insert : '\uFFFC')).join('');
}

/**
 * The range of the first occurrence of `quote` in the document, within one run of text (a paragraph's text between
 * inline objects such as mentions), or null when there is none.
 */
export function anchorQuote(state: Uint8Array, quote: string): { start: string; end: string } | null {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  for (const text of textsOf(doc.getXmlFragment(COLLAB_FIELD))) {
    const at = plainText(text).indexOf(quote);
    if (at < 0) continue;
    // The start sticks to the character after it and the end to the one before, so text typed at either edge stays out.
    return {
      start: encode(Y.createRelativePositionFromTypeIndex(text, at, 0)),
      end: encode(Y.createRelativePositionFromTypeIndex(text, at + quote.length, -1)),
    };
  }
  return null;
}
