/**
 * The round-trip check of the import/export bench: a space read back through the API (tree, each page's content JSON,
 * each attachment's bytes), with every id replaced by what it means — a page by its place in the tree, an attachment
 * by the SHA-256 of its bytes — so that the original and its imported copy compare as equal when nothing was lost.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type Api, inParallel } from './import-export-api.js';

interface TreeNode {
  id: string;
  title: string;
  position: string;
  children: TreeNode[];
}

/** The space's live pages as a tree, siblings in order (position, then id, as the tree shows them). */
async function readTree(api: Api, workspaceId: string, spaceId: string): Promise<TreeNode[]> {
  const rows: { id: string; parentId: string | null; title: string; position: string }[] = [];
  for (let page = 1; ; page++) {
    const batch = await api.call('GET', `/api/v1/pages?workspaceId=${workspaceId}&spaceId=${spaceId}&view=tree&limit=100&page=${page}`);
    rows.push(...batch);
    if (batch.length < 100) break;
  }
  const nodes = new Map(rows.map((r) => [r.id, { id: r.id, title: r.title, position: r.position, children: [] as TreeNode[] }]));
  const roots: TreeNode[] = [];
  for (const r of rows) (r.parentId && nodes.get(r.parentId) ? nodes.get(r.parentId)!.children : roots).push(nodes.get(r.id)!);
  const sort = (list: TreeNode[]) => {
    list.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

interface FileView {
  sha256: string;
  filename: string;
  contentType: string;
}

export interface PageView {
  /** `3.0.2`: the fourth root's first child's third child. */
  path: string;
  title: string;
  children: string[];
  /** The content JSON with ids replaced by `PAGE<path>` and `FILE<sha256…>`. */
  content: unknown;
  /** Its attachments, by their bytes' SHA-256. */
  files: FileView[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
// A web-app page address: `/w/<workspace>/s/<space>/p/<slug>-<id>`; the space's and page's slugs differ between copies.
const APP_LINK = /\/w\/[^/"]+\/s\/[^/"]+\/p\/[^"]*?-?(PAGE<[0-9.]+>)/g;

/** Every page of the space, in tree order, as a PageView (reads `concurrency` pages at a time). */
export async function readSpace(api: Api, workspaceId: string, spaceId: string, concurrency = 4): Promise<PageView[]> {
  const order: { node: TreeNode; path: string }[] = [];
  const walk = (nodes: TreeNode[], prefix: string) =>
    nodes.forEach((node, i) => {
      order.push({ node, path: `${prefix}${i}` });
      walk(node.children, `${prefix}${i}.`);
    });
  walk(await readTree(api, workspaceId, spaceId), '');
  const raw = await inParallel(order, concurrency, async ({ node }) => {
    const page = await api.call('GET', `/api/v1/pages/${node.id}`);
    const listed: { id: string; filename: string; contentType: string }[] = await api.call(
      'GET',
      `/api/v1/attachments?workspaceId=${workspaceId}&pageId=${node.id}`,
    );
    const files = [];
    for (const a of listed) {
      const sha256 = createHash('sha256')
        .update(await api.download(`/api/v1/attachments/${a.id}/download`))
        .digest('hex');
      files.push({ id: a.id, sha256, filename: a.filename, contentType: a.contentType });
    }
    return { page, files };
  });
  const names = new Map<string, string>(order.map(({ node, path }) => [node.id, `PAGE<${path}>`]));
  for (const { files } of raw) for (const f of files) names.set(f.id, `FILE<${f.sha256.slice(0, 12)}>`);
  return order.map(({ node, path }, i) => {
    const json = JSON.stringify(raw[i].page.content)
      .replace(UUID, (id) => names.get(id) ?? `FOREIGN<${id}>`)
      .replace(APP_LINK, '/w/WORKSPACE/s/SPACE/p/$1');
    return {
      path,
      title: raw[i].page.title,
      children: node.children.map((c) => c.title),
      content: JSON.parse(json),
      files: raw[i].files.map(({ sha256, filename, contentType }) => ({ sha256, filename, contentType })).sort((a, b) => a.sha256.localeCompare(b.sha256)),
    };
  });
}

/** One kind of difference, with the first place it was seen and the smallest piece of content that shows it. */
export interface Difference {
  kind: string;
  count: number;
  page: string;
  before: string;
  after: string;
}

type Node = { type?: string; content?: unknown[]; [k: string]: unknown };
const show = (x: unknown, max = 500) => {
  const s = JSON.stringify(x) ?? 'undefined';
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

/**
 * Where two documents first differ: descends while both nodes have the same type and only one child differs, and
 * names the difference by the node types on the way (`doc>paragraph>text: marks`), so the same loss on 1,000 pages
 * counts as one kind.
 */
function firstDifference(a: Node, b: Node, way: string[] = []): { kind: string; before: unknown; after: unknown } | null {
  if (isDeepStrictEqual(a, b)) return null;
  const here = [...way, a?.type ?? typeof a];
  if (a && b && typeof a === 'object' && typeof b === 'object' && a.type === b.type) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k]));
    if (keys.length === 1 && keys[0] === 'content' && Array.isArray(a.content) && Array.isArray(b.content)) {
      const at = a.content.findIndex((child, i) => !isDeepStrictEqual(child, (b.content as unknown[])[i]));
      if (a.content.length === b.content.length) return firstDifference(a.content[at] as Node, b.content[at] as Node, here);
      return {
        kind: `${here.join('>')}: ${a.content.length} children → ${b.content.length}`,
        before: a.content.slice(at, at + 3),
        after: b.content.slice(at, at + 3),
      };
    }
    return { kind: `${here.join('>')}: ${keys.join(', ')}`, before: a, after: b };
  }
  return { kind: `${here.join('>')}: became ${b?.type ?? typeof b}`, before: a, after: b };
}

/** The differences between an original space and its copy, one entry per kind, in the order first seen. */
export function compareSpaces(original: PageView[], copy: PageView[]): Difference[] {
  const kinds = new Map<string, Difference>();
  const note = (kind: string, page: PageView, before: unknown, after: unknown) => {
    const known = kinds.get(kind);
    if (known) known.count++;
    else kinds.set(kind, { kind, count: 1, page: `${page.path} “${page.title}”`, before: show(before), after: show(after) });
  };
  const byPath = new Map(copy.map((p) => [p.path, p]));
  for (const page of original) {
    const other = byPath.get(page.path);
    byPath.delete(page.path);
    if (!other) {
      note('tree: a page is missing', page, page.title, null);
      continue;
    }
    if (other.title !== page.title) note('tree: title', page, page.title, other.title);
    if (!isDeepStrictEqual(other.children, page.children)) note('tree: children (nesting or order)', page, page.children, other.children);
    const diff = firstDifference(page.content as Node, other.content as Node);
    if (diff) note(`content: ${diff.kind}`, page, diff.before, diff.after);
    if (
      !isDeepStrictEqual(
        other.files.map((f) => f.sha256),
        page.files.map((f) => f.sha256),
      )
    )
      note('attachments: bytes or owner', page, page.files, other.files);
    else
      for (const [i, f] of page.files.entries())
        for (const key of ['filename', 'contentType'] as const)
          if (f[key] !== other.files[i][key]) note(`attachments: ${key}`, page, f[key], other.files[i][key]);
  }
  for (const extra of byPath.values()) note('tree: a page that was not there', extra, null, extra.title);
  return [...kinds.values()];
}
