/**
 * Page content as a Yjs document, the form co-editing works in (Tiptap's Collaboration field `default`), and back.
 * These run on the CPU pool for large pages (see workers/offload.ts): plain data in, plain data out.
 */
import { prosemirrorJSONToYDoc, yXmlFragmentToProseMirrorRootNode, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { AppError } from '../errors.js';
import { schema } from './schema.js';
import { updateBlocks } from './ydoc-blocks.js';
import { documentToText } from './text.js';
import { type DocJson, documentsEqual, emptyDocument, parseDocument } from './validate.js';

/** The name of the shared XML fragment that holds the page (Tiptap's `Collaboration` `field`). */
export const COLLAB_FIELD = 'default';

function docOf(state: Uint8Array): Y.Doc {
  const doc = new Y.Doc({ gc: true });
  Y.applyUpdate(doc, state);
  return doc;
}

/** The Yjs state of a (valid) document: what a page's live document starts from when it has none yet. */
export function documentToYState(json: DocJson): Uint8Array {
  return Y.encodeStateAsUpdate(prosemirrorJSONToYDoc(schema, json, COLLAB_FIELD));
}

/** The ProseMirror document a Yjs fragment holds (elements the schema does not know are left out). */
function fragmentToDocument(fragment: Y.XmlFragment): DocJson {
  return yXmlFragmentToProseMirrorRootNode(fragment, schema).toJSON() as DocJson;
}

/** Where a failed check points: `content[2].content[0]` → [2, 0]. */
function indexPath(path: string): number[] {
  return [...path.matchAll(/content\[(\d+)\]/g)].map((m) => Number(m[1]));
}

/**
 * The document with what the REST API would refuse taken out, one problem at a time: a text node loses its marks (a
 * `javascript:` link, say), any other node goes. What co-editing stores is held to the same rules as a `PUT`.
 */
export function sanitizeDocument(json: DocJson): DocJson {
  let current = json;
  for (let round = 0; round < 1000; round++) {
    try {
      return parseDocument(current).toJSON() as DocJson;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const at = indexPath(String(err.details?.path ?? ''));
      if (at.length === 0) return emptyDocument();
      current = structuredClone(current);
      let parent = current as { content?: Record<string, unknown>[] };
      for (const i of at.slice(0, -1)) parent = parent.content![i] as typeof parent;
      const last = at[at.length - 1];
      const node = parent.content![last];
      if (node.type === 'text' && node.marks) delete node.marks;
      else parent.content!.splice(last, 1);
    }
  }
  return emptyDocument();
}

export interface LiveSnapshot {
  /** The document to store: valid by the API's rules. */
  json: DocJson;
  text: string;
  /** True when the live document held something the API refuses, and `json` leaves it out. */
  corrected: boolean;
  /** True when `json` is the content stored already. */
  unchanged: boolean;
  /** Size of `json` serialised (MAX_PAGE_BYTES bounds it as it bounds a PUT). */
  bytes: number;
}

/** Every text node's text, concatenated (to notice text a conversion left out). */
function allText(json: unknown): string {
  const parts: string[] = [];
  const stack: unknown[] = [json];
  while (stack.length) {
    const node = stack.pop() as { text?: unknown; content?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    if (typeof node.text === 'string') parts.push(node.text);
    if (Array.isArray(node.content)) for (let i = node.content.length - 1; i >= 0; i--) stack.push(node.content[i]);
  }
  return parts.join('');
}

function sameDocument(a: DocJson, b: DocJson): boolean {
  try {
    return documentsEqual(a, b);
  } catch {
    return false;
  }
}

/**
 * What a live document's state is, as a page stores it: JSON checked like a REST write, and its plain text; compared
 * with the content stored now.
 */
export function yStateToSnapshot(input: { state: Uint8Array; stored: DocJson }): LiveSnapshot {
  const fragment = docOf(input.state).getXmlFragment(COLLAB_FIELD);
  // The schema leaves out what it cannot build (a javascript: link, an unknown node; y-prosemirror deletes it from
  // this copy as it converts): then the live document holds text the page does not, and is corrected too.
  const textBefore = allText(yXmlFragmentToProsemirrorJSON(fragment));
  const raw = fragmentToDocument(fragment);
  const json = sanitizeDocument(raw);
  const dropped = textBefore !== allText(raw);
  const serialised = JSON.stringify(json);
  const corrected = dropped || serialised !== JSON.stringify(raw);
  return { json, text: documentToText(parseDocument(json)), corrected, unchanged: sameDocument(json, input.stored), bytes: Buffer.byteLength(serialised) };
}

/**
 * A write from outside (REST, MCP, local sync, a restore) as a Yjs change: the stored state turned into `json` by the
 * smallest edit (blocks paired, then y-prosemirror's fragment update of each: ydoc-blocks.ts), returned both as the new state and as the update to merge into a
 * live document that has moved on since `state` (concurrent typing elsewhere in the page survives the merge).
 */
export function outsideWriteToYUpdate(input: { state: Uint8Array; json: DocJson }): { state: Uint8Array; update: Uint8Array } {
  const doc = docOf(input.state);
  const before = Y.encodeStateVector(doc);
  doc.transact(() => updateBlocks(doc, doc.getXmlFragment(COLLAB_FIELD), parseDocument(input.json)));
  return { state: Y.encodeStateAsUpdate(doc), update: Y.encodeStateAsUpdate(doc, before) };
}

/** Turns a live document into `json` in place (a correction of content the API refuses), as one transaction. */
export function replaceLiveContent(doc: Y.Doc, json: DocJson, origin?: unknown): void {
  doc.transact(() => updateBlocks(doc, doc.getXmlFragment(COLLAB_FIELD), parseDocument(json)), origin);
}
