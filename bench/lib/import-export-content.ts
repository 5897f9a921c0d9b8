import { crc32 } from 'node:zlib';

/**
 * What the import/export bench seeds: a page tree of subtrees of 50 pages, 4 levels deep, with titles that clash as
 * file names, and each page's content using every node and mark of the editor's schema (src/editor/extensions.ts),
 * with references to other pages (mention, web-app link, API link) and to attachments (image, download link).
 * Deterministic: the same size gives the same space, so runs compare.
 */

/** A small seeded PRNG (mulberry32): the same sequence every run. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

export interface PlannedPage {
  index: number;
  /** Index of the parent in the plan, null for a root (parents come before their children). */
  parent: number | null;
  title: string;
  depth: number;
}

/**
 * Titles a team writes, some of which a file system cannot take as they are (`/`, `:`, `?`, a leading dot, a case-only
 * twin, a title past 120 bytes): the export renames their files, and the import must give the titles back.
 */
const CHILD_TITLES = [
  'Overview',
  'Setup: first steps',
  'Q&A / FAQ',
  'Notes',
  'notes',
  'What’s new?',
  '.hidden config',
  'Runbook <prod> | on-call',
  'Déjà vu — naïve café ✓ 日本語',
  `A very long title that keeps going ${'and going '.repeat(10)}until the end`,
];

/**
 * `pages` (a multiple of 50) pages as subtrees of 50: a root, 7 children, 5 grandchildren under each of the first 6
 * children, and 12 great-grandchildren under the first grandchildren: 1 + 7 + 30 + 12 = 50, four levels.
 */
export function planTree(pages: number): PlannedPage[] {
  if (pages % 50) throw new Error(`the page count must be a multiple of 50, got ${pages}`);
  const plan: PlannedPage[] = [];
  const add = (parent: number | null, title: string) => {
    const depth = parent === null ? 0 : plan[parent].depth + 1;
    plan.push({ index: plan.length, parent, title, depth });
    return plan.length - 1;
  };
  for (let r = 0; r < pages / 50; r++) {
    const root = add(null, `Area ${r + 1}`);
    const children = Array.from({ length: 7 }, (_, c) => add(root, CHILD_TITLES[(r + c) % CHILD_TITLES.length]));
    const grandchildren = children.slice(0, 6).flatMap((child, c) => Array.from({ length: 5 }, (_, g) => add(child, `Topic ${c + 1}.${g + 1}`)));
    for (let k = 0; k < 12; k++) add(grandchildren[k % 6], k % 4 === 3 ? 'Notes' : `Detail ${k + 1}`);
  }
  return plan;
}

export interface PlannedAttachment {
  /** The page it is uploaded to. */
  page: number;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
}

/**
 * Random bytes in PNG's framing (signature, IHDR, one IDAT, IEND): what a content sniffer calls a PNG. The import
 * checks that a `.png` is one, and refuses the whole upload if not (see docs/import-export-bench.md).
 */
function pngLooking(random: Buffer) {
  const header = Buffer.from('0000010000000100080600000000', 'hex').subarray(0, 13); // 256×256, 8-bit RGBA
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', header), pngChunk('IDAT', random), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * `count` attachments of 2–200 KB of random bytes, on every fifth page (two on every fourth of those): PNG-looking ones
 * (for images) and PDFs, some with the same name as an attachment beside them in the same export folder.
 */
export function planAttachments(plan: PlannedPage[], count: number, rng: ReturnType<typeof seeded>): PlannedAttachment[] {
  const out: PlannedAttachment[] = [];
  for (let i = 0; i < count; i++) {
    const page = ((i - (i % 4 === 1 ? 1 : 0)) * 5) % plan.length;
    const size = rng.int(2 * 1024, 200 * 1024);
    const random = Buffer.alloc(size);
    for (let b = 0; b < size; b += 4) random.writeUInt32LE(Math.floor(rng.next() * 0x100000000), Math.min(b, size - 4));
    const image = i % 3 !== 2;
    if (i % 9 === 8) {
      // A file whose name has no extension (a README, a Makefile): its type is only in the upload.
      out.push({ page, filename: 'README', contentType: 'text/plain', bytes: random });
      continue;
    }
    const bytes = image ? pngLooking(random) : Buffer.concat([Buffer.from('%PDF-1.4\n'), random]);
    const filename = image ? (i % 2 ? 'diagram.png' : `screenshot ${i}.png`) : i % 2 ? 'manual.pdf' : `report ${i} (final).pdf`;
    out.push({ page, filename, contentType: image ? 'image/png' : 'application/pdf', bytes });
  }
  return out;
}

type Json = Record<string, unknown>;
const text = (s: string, marks?: string[] | Json[]): Json => ({
  type: 'text',
  text: s,
  ...(marks ? { marks: marks.map((m) => (typeof m === 'string' ? { type: m } : m)) } : {}),
});
const link = (href: string) => ({ type: 'link', attrs: { href } });
const para = (...content: Json[]): Json => ({ type: 'paragraph', content });
const item = (type: 'listItem' | 'taskItem', blocks: Json[], checked?: boolean): Json => ({
  type,
  ...(checked === undefined ? {} : { attrs: { checked } }),
  content: blocks,
});
const cell = (type: 'tableCell' | 'tableHeader', ...content: Json[]): Json => ({ type, content: [para(...content)] });

/** What a page's content points at: other pages (as a mention, by web-app address, by API address) and files. */
export interface ContentRefs {
  mention: { id: string; label: string };
  appLink: string;
  apiLink: string | null;
  /** An image's download address (the page's own attachment, or another page's). */
  image: string;
  /** A non-image attachment's download address, when the page has one. */
  file: string | null;
}

/**
 * A page's content: every node type and mark of the schema, nested lists 3 deep, a table with a header row, and text
 * that looks like Markdown syntax (it must come back as text).
 */
export function pageContent(title: string, n: number, refs: ContentRefs): Json {
  const steps = ['Install the agent', 'Check the *config* file', 'Restart with `systemctl restart kb`'];
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1 }, content: [text(title)] },
      para(
        text('This page is '),
        text('important', ['bold']),
        text(', '),
        text('a little', ['italic']),
        text(', '),
        text('out of date', ['strike']),
        text(' and runs '),
        text(`kb serve --port ${8000 + n}`, ['code']),
        text('. Read '),
        text('the handbook', [link(`https://example.com/handbook?page=${n}&lang=en`)]),
        text(' or '),
        text('this part', ['bold', 'italic']),
        text('.'),
        { type: 'hardBreak' },
        text('See '),
        { type: 'mention', attrs: { id: `page:${refs.mention.id}`, label: refs.mention.label } },
        text(' and '),
        text('the related page', [link(refs.appLink)]),
        ...(refs.apiLink ? [text(' ('), text('by its API address', [link(refs.apiLink)]), text(')')] : []),
        text('.'),
      ),
      { type: 'heading', attrs: { level: 2 }, content: [text(`Steps for release ${n}`)] },
      {
        type: 'orderedList',
        attrs: { start: 1 + (n % 3), type: null },
        content: steps.map((s, i) => item('listItem', [para(text(s)), ...(i === 1 ? [bullets(n)] : [])])),
      },
      { type: 'heading', attrs: { level: 3 }, content: [text('Checklist')] },
      {
        type: 'taskList',
        content: [
          item('taskItem', [para(text('Back up the database'))], true),
          item(
            'taskItem',
            [para(text('Tell the team')), { type: 'taskList', content: [item('taskItem', [para(text('in the channel'))], n % 2 === 0)] }],
            false,
          ),
        ],
      },
      { type: 'heading', attrs: { level: 4 }, content: [text('Quote')] },
      { type: 'blockquote', content: [para(text('Measure twice, cut once.')), para(text('— the team', ['italic']))] },
      { type: 'heading', attrs: { level: 5 }, content: [text('Code')] },
      {
        type: 'codeBlock',
        attrs: { language: n % 2 ? 'ts' : 'bash' },
        content: [text(`const port = ${8000 + n};\n\nif (port > 1024) {\n  console.log("ok");\n}`)],
      },
      { type: 'horizontalRule' },
      { type: 'heading', attrs: { level: 6 }, content: [text('Figures')] },
      { type: 'image', attrs: { src: refs.image, alt: `Figure ${n}`, title: null, width: null, height: null } },
      ...(refs.file ? [para(text('The '), text('manual', [link(refs.file)]), text(' has the details.'))] : []),
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', text('Setting')), cell('tableHeader', text('Value')), cell('tableHeader', text('Note'))] },
          {
            type: 'tableRow',
            content: [cell('tableCell', text('port', ['code'])), cell('tableCell', text(String(8000 + n))), cell('tableCell', text('required', ['bold']))],
          },
          {
            type: 'tableRow',
            content: [
              cell('tableCell', text('host')),
              cell('tableCell', text('127.0.0.1')),
              cell('tableCell', text('see '), text('docs', [link('https://example.com/docs')])),
            ],
          },
          { type: 'tableRow', content: [cell('tableCell', text('range')), cell('tableCell', text('min | max')), cell('tableCell', text('a pipe in a cell'))] },
        ],
      },
      para(text('Special characters: 2 * 3 = 6, snake_case, #hash, [brackets], <angle>, back\\slash, 100% & more.')),
      para(text('1. This line is not a list, and # this is not a heading.')),
      // Documentation about Markdown: a fenced block inside a code block.
      ...(n % 25 === 0 ? [{ type: 'codeBlock', attrs: { language: 'md' }, content: [text('```js\nconsole.log(1);\n```')] }] : []),
    ],
  };
}

/** A page with nothing written yet (a heading for its children): what the editor stores for an empty document. */
export const EMPTY_PAGE = { type: 'doc', content: [{ type: 'paragraph' }] };

/** A bullet list nested three levels deep. */
function bullets(n: number): Json {
  const level3 = { type: 'bulletList', content: [item('listItem', [para(text(`level 3, item ${n}`))])] };
  const level2 = { type: 'bulletList', content: [item('listItem', [para(text('level 2')), level3]), item('listItem', [para(text('level 2, second'))])] };
  return { type: 'bulletList', content: [item('listItem', [para(text('level 1')), level2]), item('listItem', [para(text('level 1, second'))])] };
}
