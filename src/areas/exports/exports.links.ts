import type { DocJson } from '../../db/tables/pages.js';
import { relativeUrl } from './exports.names.js';

/**
 * Links inside an exported page, made relative to the page's own file so they open in Obsidian, VS Code or a
 * browser from the unzipped folder:
 * - a page mention (`mention` node, id `page:<id>`, as the editor's "@" menu inserts it) becomes a link to the
 *   page's file, its label as text;
 * - a link to a page's address in the web app (`…/p/<slug>-<id>`) or the API (`/api/v1/pages/<id>`) likewise;
 * - an attachment's download address (`/api/v1/attachments/<id>/download`), as an image, a file, video or audio
 *   block or a link, becomes the path of the attachment's file.
 * A target outside the export is left as it is (a mention stays a mention, a URL stays a URL).
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const APP_PAGE = new RegExp(`^(?:https?://[^/]+)?/w/[^/?#]+/s/[^/?#]+/p/(?:[^/?#]*-)?(${UUID})/?(#.*)?$`, 'i');
export const API_PAGE = /^(?:https?:\/\/[^/]+)?\/api\/(?:v1\/)?pages\/([^/?#]+)\/?(#.*)?$/i;
export const API_ATTACHMENT = /^(?:https?:\/\/[^/]+)?\/api\/(?:v1\/)?attachments\/([^/?#]+)(?:\/download)?\/?(?:\?[^#]*)?$/i;
export const PAGE_MENTION_PREFIX = 'page:';

/** Where pages and attachments of the export sit in the zip, by id. */
export interface ExportPaths {
  page(id: string): string | undefined;
  attachment(id: string): string | undefined;
}

type Json = Record<string, unknown>;

/** The attribute holding the address of each node that points at a file (an attachment's download address, maybe). */
const ADDRESS_ATTR: Record<string, string> = { image: 'src', inlineImage: 'src', fileAttachment: 'url', video: 'src', audio: 'src' };
type Mark = { type: string; attrs?: Json };

function decode(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** The path in the export a URL points at (with its #fragment for pages), or null. */
function targetOf(url: string, paths: ExportPaths): string | null {
  const page = APP_PAGE.exec(url) ?? API_PAGE.exec(url);
  if (page) {
    const path = paths.page(decode(page[1]));
    return path ? `${path}${page[2] ?? ''}` : null;
  }
  const attachment = API_ATTACHMENT.exec(url);
  if (attachment) return paths.attachment(decode(attachment[1])) ?? null;
  return null;
}

/** `url` relative to the file at `from` when it points into the export; otherwise unchanged. */
function rewriteUrl(url: unknown, from: string, paths: ExportPaths): unknown {
  if (typeof url !== 'string') return url;
  const target = targetOf(url.trim(), paths);
  if (!target) return url;
  const [path, fragment] = target.split(/(?=#)/);
  return `${relativeUrl(from, path)}${fragment ?? ''}`;
}

function rewriteMarks(marks: unknown, from: string, paths: ExportPaths): unknown {
  if (!Array.isArray(marks)) return marks;
  return (marks as Mark[]).map((m) => (m.type === 'link' && m.attrs ? { ...m, attrs: { ...m.attrs, href: rewriteUrl(m.attrs.href, from, paths) } } : m));
}

/** One node, rewritten (children by the caller's loop, never by recursion: content may nest deep). */
function rewriteNode(node: Json, from: string, paths: ExportPaths, titleOf: (id: string) => string | undefined): Json {
  const attrs = node.attrs as Json | undefined;
  if (node.type === 'mention' && typeof attrs?.id === 'string' && attrs.id.startsWith(PAGE_MENTION_PREFIX)) {
    const pageId = attrs.id.slice(PAGE_MENTION_PREFIX.length);
    const path = paths.page(pageId);
    if (path) {
      // `@Label`: an import of the export turns a link whose text starts with `@` back into a mention.
      const text = `@${(typeof attrs.label === 'string' && attrs.label) || titleOf(pageId) || 'page'}`;
      const marks = Array.isArray(node.marks) ? (node.marks as Mark[]).filter((m) => m.type !== 'link') : [];
      return { type: 'text', text, marks: [...marks, { type: 'link', attrs: { href: relativeUrl(from, path) } }] };
    }
  }
  const out: Json = { ...node };
  const address = attrs && ADDRESS_ATTR[String(node.type)];
  if (address) out.attrs = { ...attrs, [address]: rewriteUrl(attrs[address], from, paths) };
  if (node.marks) out.marks = rewriteMarks(node.marks, from, paths);
  return out;
}

/** A copy of `doc` with its links made relative to `from` (the page's own path in the zip). */
export function rewriteLinks(doc: DocJson, from: string, paths: ExportPaths, titleOf: (id: string) => string | undefined): DocJson {
  const root = rewriteNode(doc as Json, from, paths, titleOf);
  const stack: Json[] = [root];
  while (stack.length) {
    const node = stack.pop() as Json;
    if (!Array.isArray(node.content)) continue;
    node.content = (node.content as Json[]).map((child) => {
      const copy = rewriteNode(child, from, paths, titleOf);
      stack.push(copy);
      return copy;
    });
  }
  return root as DocJson;
}
