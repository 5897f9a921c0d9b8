import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportAndUnzip, unzip } from '../exports/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { createSpace } from '../spaces/helpers.js';
import {
  type ImportSuite,
  type ImportView,
  importFile,
  importSuite,
  makeZip,
  postImport,
  readPage,
  readTree,
  type TreeNode,
  waitForImport,
} from './helpers.js';

/**
 * Real exports of other tools (Outline's own test fixtures, Notion exports, the Obsidian help vault), imported end to
 * end through the HTTP upload. They are not in git: `REAL_EXPORTS_DIR` (default `.tmp/real-exports`) holds them, and
 * docs/imports.md says how to fetch them. Without that folder the whole file is skipped.
 *
 * For each export it prints what a user would notice: pages and attachments made, warnings, and the share of the
 * source's words that arrive (each source page's words against those of the page it became). Then the imported
 * Obsidian vault goes through kb's own export (Markdown and HTML) and back, and no page may change.
 * Outline's Markdown exports (and Import-Export.zip) hold `[text]()`, which issue 29 made importable (branch
 * i29-crash); before that they fail here.
 */

const DIR = path.resolve(process.env.REAL_EXPORTS_DIR ?? path.join(import.meta.dirname, '../../.tmp/real-exports'));
const present = existsSync(path.join(DIR, 'obsidian-help-en.zip'));

interface Expected {
  file: string;
  /** `refused`: kb has no importer for it, and says so at the upload (422), never a 500. */
  outcome: 'succeeded' | 'refused';
  /** Least share of the source's words that must arrive, over the whole export. */
  minWords?: number;
}

const EXPORTS: Expected[] = [
  { file: 'outline-markdown.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'outline-export-markdown.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'outline-markdown-public.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'outline.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'outline-json.zip', outcome: 'refused' },
  { file: 'notion-html.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'notion-markdown.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'notion.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'Development-export.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'Import-Export.zip', outcome: 'succeeded', minWords: 0.9 },
  { file: 'obsidian-help-en.zip', outcome: 'succeeded', minWords: 0.9 },
];

// ---------- words ----------

type Bag = Map<string, number>;

const WORD = /[\p{L}\p{N}]+/gu;

function bagOf(text: string): Bag {
  const bag: Bag = new Map();
  for (const w of text.toLowerCase().match(WORD) ?? []) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

const sizeOf = (bag: Bag) => [...bag.values()].reduce((a, b) => a + b, 0);

/** How many of `source`'s words `target` holds (each word counted at most as often as the target has it). */
function overlap(source: Bag, target: Bag): number {
  let n = 0;
  for (const [w, c] of source) n += Math.min(c, target.get(w) ?? 0);
  return n;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The visible text of HTML: head, scripts and styles left out, tags as spaces, entities decoded. */
function htmlText(html: string): string {
  return html
    .replace(/<head[\s\S]*?<\/head>|<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    });
}

const md = MarkdownIt('default', { html: false });

/**
 * The words a reader sees in a Markdown page: front matter left out; Obsidian's `[[target|text]]` read as its text and
 * `![[embed]]` as nothing (an embedded file's name is not text of the page).
 */
function markdownText(text: string): string {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  const links = body
    .replace(/!\[\[[^\]]*\]\]/g, ' ')
    .replace(/\[\[([^\]|]*?)(?:\|([^\]]*))?\]\]/g, (_, target: string, label?: string) => label ?? target.split('#')[0].split('/').pop() ?? '');
  return htmlText(md.render(links));
}

/** The words of a page as kb shows it: its title and every text and mention of its content. */
function pageText(page: { title: string; content: unknown }): string {
  const out: string[] = [page.title];
  const walk = (node: { type?: string; text?: string; attrs?: { label?: string }; content?: unknown[] }) => {
    if (node.type === 'text' && node.text) out.push(node.text);
    if (node.type === 'mention' && node.attrs?.label) out.push(node.attrs.label);
    for (const child of (node.content ?? []) as (typeof node)[]) walk(child);
    out.push(' ');
  };
  walk(page.content as Parameters<typeof walk>[0]);
  return out.join(' ');
}

const PAGE_FILE = /\.(md|markdown|html?)$/i;
const NOTION_ID = /\s[0-9a-f]{32}$/;

/** The page files of an export (macOS' and hidden folders' left out), with their text's words and their likely titles. */
async function sourcePages(zip: Buffer) {
  const files = await unzip(zip);
  const out: { path: string; bag: Bag; titles: string[] }[] = [];
  for (const [file, bytes] of files) {
    if (!PAGE_FILE.test(file) || file.split('/').some((part) => part.startsWith('.') || part === '__MACOSX')) continue;
    const text = bytes.toString('utf8');
    const html = /\.html?$/i.test(file);
    const stem = path.posix.basename(file).replace(PAGE_FILE, '').replace(NOTION_ID, '');
    const heading = html ? /<title>([\s\S]*?)<\/title>|<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text) : /^\s*(?:---[\s\S]*?---\s*)?#\s+(.+)$/m.exec(text);
    const titles = [stem, ...(heading ? [htmlText(heading[1] ?? heading[2] ?? '')] : [])].map((s) => s.trim().toLowerCase());
    out.push({ path: file, bag: bagOf(html ? htmlText(text) : markdownText(text)), titles });
  }
  return out;
}

// ---------- the pages kb made ----------

interface ReadPage {
  id: string;
  title: string;
  content: unknown;
}

const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe.skipIf(!present)('imports: real exports of other tools, end to end', () => {
  // Reading back a few hundred pages twice is more than the default 600 requests a minute.
  const suite = importSuite({ RATE_LIMIT_MAX: 1_000_000 });
  let t: TestApp;
  let ws: ImportSuite['ws'];
  const report: string[] = [];
  let vault: { spaceId: string; spaceSlug: string } | undefined;

  beforeAll(() => {
    ({ t, ws } = suite);
    return () => {
      console.log(`\nReal exports (${DIR}):\n${report.join('\n')}\n`);
    };
  });

  async function readPages(spaceId: string): Promise<ReadPage[]> {
    const out: ReadPage[] = [];
    for (const node of flatten(await readTree(t, ws.editor, ws.workspace.id, spaceId))) {
      const res = await t.request({ url: `/api/v1/pages/${node.id}`, token: ws.editor.token });
      expect(res.status).toBe(200);
      out.push({ id: node.id, title: res.body.data.title, content: res.body.data.content });
    }
    return out;
  }

  async function stillAnswers() {
    const res = await t.request({ url: '/api/health' });
    expect(res.status).toBe(200);
  }

  it.each(EXPORTS)(
    '$file',
    async ({ file, outcome, minWords }) => {
      const bytes = await readFile(path.join(DIR, file));
      const space = await createSpace(t, ws.admin, ws.workspace.id, { name: file });
      const res = await postImport(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id }, { bytes, filename: file });
      if (outcome === 'refused') {
        // No importer for it: a clear refusal at the upload or by the job, never INTERNAL_ERROR.
        const error = res.status === 202 ? (await waitForImport(t, ws.editor, res.body.data.id)).error : res.body.error;
        expect(res.status === 202 || res.status === 422, JSON.stringify(res.body)).toBe(true);
        expect(error?.code, JSON.stringify(error)).toBe('VALIDATION_ERROR');
        report.push(`${file}: refused (${error?.message})`);
        await stillAnswers();
        return;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const done: ImportView = await waitForImport(t, ws.editor, res.body.data.id, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      await stillAnswers();

      const pages = await readPages(space.id);
      const bags = pages.map((p) => ({ page: p, bag: bagOf(pageText(p)), title: p.title.trim().toLowerCase() }));
      const sources = await sourcePages(bytes);
      let words = 0;
      let kept = 0;
      const losing: string[] = [];
      for (const source of sources) {
        const total = sizeOf(source.bag);
        if (total === 0) continue;
        const named = bags.filter((b) => source.titles.includes(b.title));
        const best = Math.max(0, ...(named.length ? named : bags).map((b) => overlap(source.bag, b.bag)));
        words += total;
        kept += best;
        if (best / total < 0.9) losing.push(`${source.path} ${Math.round((100 * best) / total)}% of ${total}`);
      }
      const share = words ? kept / words : 1;
      const counts = new Map<string, number>();
      for (const w of done.warnings) {
        const kind = w.message
          .replace(/"[^"]*"/g, '"…"')
          .replace(/^the (image|link to) \S+/, 'the $1 …')
          .replace(/\d+/g, 'N')
          .replace(/: .*$/, '')
          .slice(0, 100);
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      report.push(
        [
          `${file} (read as ${done.detectedSource}): ${done.result?.pages} pages from ${sources.length} page files, ${done.result?.attachments} attachments, ${done.warnings.length} warnings, ${(100 * share).toFixed(1)}% of ${words} words kept`,
          ...[...counts].map(([kind, n]) => `    warning ×${n}: ${kind}`),
          ...losing.map((l) => `    page keeps less than 90%: ${l}`),
        ].join('\n'),
      );
      expect(done.result?.pages).toBeGreaterThanOrEqual(sources.length);
      expect(share).toBeGreaterThanOrEqual(minWords ?? 0);
      if (file === 'obsidian-help-en.zip') vault = { spaceId: space.id, spaceSlug: space.slug };
    },
    180_000,
  );

  /**
   * Each page's title, content JSON and Markdown by its place in the tree (`0.2.1`), ids replaced by places, for
   * comparing two spaces.
   */
  async function snapshot(spaceId: string, spaceSlug: string) {
    const tree = await readTree(t, ws.editor, ws.workspace.id, spaceId);
    const names = new Map<string, string>();
    const walk = (nodes: TreeNode[], prefix: string) =>
      nodes.forEach((n, i) => {
        names.set(n.id, `PAGE<${prefix}${i}>`);
        walk(n.children, `${prefix}${i}.`);
      });
    walk(tree, '');
    const normal = (text: string) => {
      let out = text;
      for (const [id, token] of names) out = out.replaceAll(id, token);
      let files = 0;
      return out
        .replace(/\/api\/v1\/attachments\/[0-9a-f-]+\/download/g, () => `FILE<${files++}>`)
        .replaceAll(`/s/${spaceSlug}/`, '/s/SPACE/')
        .replace(/\/p\/[a-z0-9-]*-(PAGE<)/g, '/p/$1');
    };
    const out = new Map<string, { title: string; content: string; markdown: string }>();
    for (const node of flatten(tree)) {
      const page = await readPage(t, ws.editor, node.id);
      out.set(names.get(node.id)!, { title: page.title, content: normal(JSON.stringify(page.content)), markdown: normal(page.markdown) });
    }
    return out;
  }

  it.each(['markdown', 'html'])(
    'the imported Obsidian vault goes through a kb %s export and back unchanged',
    async (format) => {
      expect(vault, 'the vault imported').toBeDefined();
      const { spaceId, spaceSlug } = vault!;
      const { files } = await exportAndUnzip(t, ws.editor, { workspaceId: ws.workspace.id, spaceId, format });
      const copy = await createSpace(t, ws.admin, ws.workspace.id, { name: `Obsidian help via ${format}` });
      const done = await importFile(
        t,
        ws.editor,
        { workspaceId: ws.workspace.id, spaceId: copy.id },
        { bytes: await makeZip(Object.fromEntries(files)), filename: `help.${format}.zip` },
      );
      await stillAnswers();
      const before = await snapshot(spaceId, spaceSlug);
      const after = await snapshot(copy.id, copy.slug);
      const moved = [...before].filter(([place, page]) => after.get(place)?.title !== page.title).map(([place, page]) => `${place} ${page.title}`);
      const same = [...before].filter(([place, page]) => after.get(place)?.title === page.title);
      // What a reader sees (the Markdown) must not change; the JSON may differ where the Markdown cannot say it (a space
      // at the edge of a bold run moves out of it), which is counted, not refused.
      const changed = same.filter(([place, page]) => after.get(place)?.markdown !== page.markdown).map(([, page]) => page.title);
      const jsonOnly = same.filter(([place, page]) => after.get(place)?.markdown === page.markdown && after.get(place)?.content !== page.content).length;
      report.push(
        `obsidian-help-en.zip → kb ${format} export → import: ${done.result?.pages} of ${before.size} pages, ${moved.length} out of place, ${changed.length} whose Markdown changed${changed.length ? ` (${changed.join(', ')})` : ''}, ${jsonOnly} whose JSON alone differs, ${done.warnings.length} warnings`,
      );
      expect(after.size).toBe(before.size);
      expect(moved).toEqual([]);
      expect(changed).toEqual([]);
    },
    180_000,
  );
});
