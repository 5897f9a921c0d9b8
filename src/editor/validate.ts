import { Node as PMNode } from '@tiptap/pm/model';
import { AppError } from '../errors.js';
import { checkEmbedUrl } from './embeds.js';
import { mediaNodeProblem } from './file-blocks.js';
import { checkLinkCardUrl } from './link-cards.js';
import { schema, storedSchema } from './schema.js';

/** A ProseMirror document as JSON: `{ type: 'doc', content: [...] }`. */
export type DocJson = Record<string, unknown>;

/** Deeper than this a document is refused (no real page nests that far; it also bounds recursion). */
export const MAX_DEPTH = 64;
/**
 * Deeper than this, counted in JSON levels (a node level is two: the node and its `content` array), a document is
 * refused before anything recursive (JSON.stringify, ProseMirror, our own checks) can run out of stack on it.
 */
export const MAX_JSON_DEPTH = 200;
/** Longest text of one text node. */
export const MAX_TEXT = 1_000_000;

export interface DocumentProblem {
  /** Where the offending node is, from the root: `content[2].content[0]` ('' for the root itself). */
  path: string;
  reason: string;
}

/** 422 VALIDATION_ERROR for a bad document, naming where. */
export function documentError(problem: DocumentProblem, field = 'content'): AppError {
  const where = problem.path ? ` at ${problem.path}` : '';
  return new AppError('VALIDATION_ERROR', `Invalid document${where}: ${problem.reason}`, { field, reason: problem.reason, path: problem.path });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const childPath = (path: string, key: string, i: number) => `${path ? `${path}.` : ''}${key}[${i}]`;

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | null;
  key: string;
}

/** The path of a visit from the root, built only for the one that failed (so the walk stays linear). */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) keys.push(v.key);
  return keys.reverse().join('').replace(/^\./, '');
}

/** The first place nested deeper than MAX_JSON_DEPTH, walked with a stack of our own (no recursion), or null. */
function checkJsonDepth(json: unknown): DocumentProblem | null {
  const stack: Visit[] = [{ value: json, depth: 0, parent: null, key: '' }];
  while (stack.length) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { path: pathOf(visit), reason: `nested deeper than ${MAX_JSON_DEPTH} JSON levels` };
    if (Array.isArray(value)) for (const [i, child] of value.entries()) stack.push({ value: child, depth: depth + 1, parent: visit, key: `[${i}]` });
    else for (const [k, child] of Object.entries(value)) stack.push({ value: child, depth: depth + 1, parent: visit, key: `.${k.slice(0, 100)}` });
  }
  return null;
}

/**
 * Throws 422 VALIDATION_ERROR when a document is nested too deeply to handle safely. Cheap and linear: call it
 * before anything recursive touches content from outside (measuring its JSON size, say). `parseDocument` calls it.
 */
export function checkDocumentDepth(json: unknown, field = 'content'): void {
  const problem = checkJsonDepth(json);
  if (problem) throw documentError(problem, field);
}

/** What the shape check found that the document needs before it is built. */
interface ShapeNotes {
  /** An embed was given without its `provider`, which is then derived from its link. */
  embedWithoutProvider: boolean;
}

/**
 * An embed's `src` is required; its `provider` is derived from `src`: left out (or null), it is filled in
 * (`withEmbedProviders`); given, it must be the one `src` names, so a reader of the JSON is never told otherwise.
 */
function checkEmbed(attrs: unknown, path: string, notes: ShapeNotes): DocumentProblem | null {
  if (!(isObject(attrs) && typeof attrs.src === 'string')) return { path, reason: 'attribute "src" of embed is required' };
  const check = checkEmbedUrl(attrs.src);
  if (!check.ok) return { path, reason: check.reason };
  if (attrs.provider === undefined || attrs.provider === null) notes.embedWithoutProvider = true;
  else if (attrs.provider !== check.provider.id)
    return {
      path,
      reason: `attribute "provider" of embed is ${JSON.stringify(String(attrs.provider).slice(0, 100))} but its src is a ${check.provider.name} link ("${check.provider.id}"); provider is derived from src and may be left out`,
    };
  return null;
}

/** The document with each embed's missing `provider` derived from its `src` (a copy along the changed paths only). */
function withEmbedProviders(json: unknown): unknown {
  if (!isObject(json)) return json;
  let out = json;
  if (json.type === 'embed' && isObject(json.attrs) && (json.attrs.provider === undefined || json.attrs.provider === null)) {
    const check = checkEmbedUrl(json.attrs.src);
    if (check.ok) out = { ...json, attrs: { ...json.attrs, provider: check.provider.id } };
  }
  if (Array.isArray(json.content)) {
    const content = json.content.map(withEmbedProviders);
    if (content.some((child, i) => child !== (json.content as unknown[])[i])) out = { ...out, content };
  }
  return out;
}

/**
 * Checks the JSON shape node by node (types, attribute names, marks, text, depth), so most problems are named
 * precisely and cheaply before ProseMirror builds the document.
 */
function checkShape(json: unknown, path: string, depth: number, notes: ShapeNotes): DocumentProblem | null {
  if (depth > MAX_DEPTH) return { path, reason: `nested deeper than ${MAX_DEPTH} levels` };
  if (!isObject(json)) return { path, reason: 'a node must be an object' };
  const { type, attrs, content, marks, text } = json;
  if (typeof type !== 'string') return { path, reason: 'a node needs a string "type"' };
  const nodeType = schema.nodes[type];
  if (!nodeType) return { path, reason: `unknown node type "${type.slice(0, 100)}"` };
  for (const key of Object.keys(json))
    if (!['type', 'attrs', 'content', 'marks', 'text'].includes(key)) return { path, reason: `unknown field "${key.slice(0, 100)}" on node ${type}` };
  if (attrs !== undefined && attrs !== null) {
    if (!isObject(attrs)) return { path, reason: `attrs of ${type} must be an object` };
    const known = nodeType.spec.attrs ?? {};
    for (const name of Object.keys(attrs)) if (!(name in known)) return { path, reason: `unknown attribute "${name.slice(0, 100)}" on node ${type}` };
  }
  if ((type === 'image' || type === 'inlineImage') && !(isObject(attrs) && typeof attrs.src === 'string'))
    return { path, reason: `attribute "src" of ${type} is required` };
  if (type === 'mention' && !(isObject(attrs) && typeof attrs.id === 'string')) return { path, reason: 'attribute "id" of mention is required' };
  if (type === 'date' && !(isObject(attrs) && typeof attrs.date === 'string')) return { path, reason: 'attribute "date" of date is required (YYYY-MM-DD)' };
  if (type === 'embed') {
    const problem = checkEmbed(attrs, path, notes);
    if (problem) return problem;
  }
  if (type === 'linkCard') {
    if (!(isObject(attrs) && typeof attrs.url === 'string')) return { path, reason: 'attribute "url" of linkCard is required' };
    const check = checkLinkCardUrl(attrs.url);
    if (!check.ok) return { path, reason: check.reason };
  }
  const media = mediaNodeProblem(type, attrs as Record<string, unknown> | undefined);
  if (media) return { path, reason: media };
  if (type === 'text') {
    if (typeof text !== 'string' || text === '') return { path, reason: 'a text node needs a non-empty string "text"' };
    if (text.length > MAX_TEXT) return { path, reason: `a text node holds at most ${MAX_TEXT} characters` };
    if (content !== undefined) return { path, reason: 'a text node has no content' };
  } else if (text !== undefined) return { path, reason: `only text nodes have "text" (this is ${type})` };
  if (marks !== undefined) {
    if (!Array.isArray(marks)) return { path, reason: 'marks must be an array' };
    for (const [i, mark] of marks.entries()) {
      const at = childPath(path, 'marks', i);
      if (!isObject(mark) || typeof mark.type !== 'string') return { path: at, reason: 'a mark must be an object with a string "type"' };
      const markType = schema.marks[mark.type];
      if (!markType) return { path: at, reason: `unknown mark type "${mark.type.slice(0, 100)}"` };
      for (const key of Object.keys(mark)) if (key !== 'type' && key !== 'attrs') return { path: at, reason: `unknown field "${key.slice(0, 100)}" on mark` };
      if (mark.attrs !== undefined && mark.attrs !== null) {
        if (!isObject(mark.attrs)) return { path: at, reason: `attrs of mark ${mark.type} must be an object` };
        const known = markType.spec.attrs ?? {};
        for (const name of Object.keys(mark.attrs))
          if (!(name in known)) return { path: at, reason: `unknown attribute "${name.slice(0, 100)}" on mark ${mark.type}` };
      }
      if (mark.type === 'link' && !(isObject(mark.attrs) && typeof mark.attrs.href === 'string'))
        return { path: at, reason: 'attribute "href" of link is required' };
      if ((mark.type === 'textColor' || mark.type === 'backgroundColor') && !(isObject(mark.attrs) && typeof mark.attrs.color === 'string'))
        return { path: at, reason: `attribute "color" of ${mark.type} is required (a colour's name)` };
    }
  }
  if (content !== undefined) {
    if (!Array.isArray(content)) return { path, reason: 'content must be an array' };
    for (const [i, child] of content.entries()) {
      const problem = checkShape(child, childPath(path, 'content', i), depth + 1, notes);
      if (problem) return problem;
    }
  }
  return null;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/**
 * Finds where ProseMirror's objection lies: children first (so the deepest culprit is named), then whether each
 * child (type and marks) may stand where it is, then the node itself (its attributes, or content left incomplete).
 * Only runs for a document already found invalid.
 */
function locate(json: Record<string, unknown>, path: string): DocumentProblem | null {
  const content = (json.content as Record<string, unknown>[] | undefined) ?? [];
  for (const [i, child] of content.entries()) {
    const problem = locate(child, childPath(path, 'content', i));
    if (problem) return problem;
  }
  const type = schema.nodes[json.type as string];
  if (!type.isText) {
    let match = type.contentMatch;
    for (const [i, childJson] of content.entries()) {
      const at = childPath(path, 'content', i);
      const child = PMNode.fromJSON(schema, childJson);
      const next = match.matchType(child.type);
      if (!next) return { path: at, reason: `${child.type.name} is not allowed here inside ${type.name}` };
      match = next;
      for (const mark of child.marks)
        if (!type.allowsMarkType(mark.type)) return { path: at, reason: `mark ${mark.type.name} is not allowed inside ${type.name}` };
    }
    if (!match.validEnd) return { path, reason: `${type.name} is missing required content (${type.spec.content ?? 'none'})` };
  }
  let node: PMNode;
  try {
    node = PMNode.fromJSON(schema, json);
  } catch (err) {
    return { path, reason: reasonOf(err) };
  }
  try {
    node.check();
  } catch (err) {
    return { path, reason: reasonOf(err) };
  }
  return null;
}

/** Builds and checks a document; throws 422 VALIDATION_ERROR with the path of the offending node. */
export function parseDocument(json: unknown, field = 'content'): PMNode {
  checkDocumentDepth(json, field);
  const notes: ShapeNotes = { embedWithoutProvider: false };
  const shape = checkShape(json, '', 0, notes);
  if (shape) throw documentError(shape, field);
  const root = (notes.embedWithoutProvider ? withEmbedProviders(json) : json) as Record<string, unknown>;
  if (root.type !== 'doc') throw documentError({ path: '', reason: `the root node must be of type "doc", not "${root.type}"` }, field);
  try {
    const doc = PMNode.fromJSON(schema, root);
    doc.check();
    return doc;
  } catch (err) {
    throw documentError(locate(root, '') ?? { path: '', reason: reasonOf(err) }, field);
  }
}

/**
 * A stored document, validated when it was written: built in `storedSchema` (no attribute checks), so content stored
 * under earlier rules (a `tel:` link, say) still reads. Depth is still checked first: reading must not recurse
 * without bound whatever the row holds.
 */
export function readDocument(json: unknown): PMNode {
  checkDocumentDepth(json);
  try {
    return PMNode.fromJSON(storedSchema, json);
  } catch {
    return parseDocument(json); // not a document ProseMirror can build: name the problem as a write would
  }
}

/** Validates page content and returns it normalised (attribute defaults filled in, adjacent same-mark text joined). */
export function validateDocument(json: unknown): DocJson {
  return parseDocument(json).toJSON() as DocJson;
}

/** True when two valid documents are the same (node for node, attributes and marks included). */
export function documentsEqual(a: unknown, b: unknown): boolean {
  return PMNode.fromJSON(schema, a).eq(PMNode.fromJSON(schema, b));
}

/** An empty document: one empty paragraph. */
export function emptyDocument(): DocJson {
  return { type: 'doc', content: [{ type: 'paragraph' }] };
}
