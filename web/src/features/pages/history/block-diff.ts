import { dayInWords } from '@editor/dates';
import { embedProvider } from '@editor/embeds';
import { diffArrays } from 'diff';

/**
 * Two versions of a page compared block by block (paragraphs, headings, list items, table rows, code blocks), then
 * word by word inside the blocks that changed. Pure and synchronous: it runs in a web worker (diff.worker.ts), so a
 * 1 MB page never holds the main thread. Formatting (bold, italics, colour) is not compared; text, mentions, dates,
 * links (by their address too), checkboxes and block kinds are.
 */

/** A node of the shared schema's JSON (`src/editor/`), as the API returns it. */
export interface DocNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: DocNode[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

/** A word, a run of spaces, a mention (a person by name, a page by title), a table cell's edge or a line break. */
export interface Token {
  kind: 'text' | 'person' | 'page' | 'cell' | 'break';
  text: string;
  /** A link's address (shown on hover). */
  href?: string;
}

export type BlockKind = 'paragraph' | 'heading' | 'item' | 'code' | 'row' | 'rule' | 'image' | 'other';

export interface Block {
  kind: BlockKind;
  /** Heading level. */
  level?: number;
  /** Nesting (lists within lists). */
  depth: number;
  /** Inside a quote. */
  quote: boolean;
  /** A list item's marker: "•", "3.", "☐", "☑". */
  marker?: string;
  /** A table row of header cells. */
  header?: boolean;
  tokens: Token[];
}

export type Part = { op: 'same' | 'add' | 'del'; tokens: Token[] };

export type Row = { op: 'same' | 'add' | 'del'; block: Block } | { op: 'change'; before: Block; after: Block; parts: Part[] } | { op: 'skip'; blocks: Block[] };

export interface BlockDiff {
  rows: Row[];
  added: number;
  removed: number;
  changed: number;
  /** Blocks in each version. */
  blocks: [number, number];
}

/** Unchanged blocks kept visible around a change; longer unchanged runs collapse to "N unchanged blocks". */
const CONTEXT = 1;
/** Beyond this many block edits, the block diff gives up finding the shortest one (a page rewritten end to end). */
const MAX_BLOCK_EDITS = 20_000;
/** Removed and added runs longer than this are not paired into changed blocks (pairing compares every two). */
const MAX_PAIRING = 300;

const WORD = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

function inlineTokens(nodes: DocNode[] | undefined, out: Token[] = []): Token[] {
  for (const node of nodes ?? []) {
    if (node.type === 'text') {
      const link = node.marks?.find((m) => m.type === 'link');
      const href = typeof link?.attrs?.href === 'string' ? link.attrs.href : undefined;
      for (const word of node.text?.match(WORD) ?? []) out.push(href ? { kind: 'text', text: word, href } : { kind: 'text', text: word });
    } else if (node.type === 'mention') {
      const id = String(node.attrs?.id ?? '');
      const label = String(node.attrs?.label ?? id);
      out.push(id.startsWith('page:') ? { kind: 'page', text: label } : { kind: 'person', text: `@${label}` });
    } else if (node.type === 'date') {
      // The day in words, one token: another day is a change.
      out.push({ kind: 'text', text: dayInWords(String(node.attrs?.date ?? '')) });
    } else if (node.type === 'hardBreak') {
      out.push({ kind: 'break', text: '\n' });
    } else if (node.type === 'image' || node.type === 'inlineImage') {
      out.push({ kind: 'text', text: `[image${node.attrs?.alt ? `: ${node.attrs.alt}` : ''}]` });
    } else if (node.type === 'embed') {
      // Its provider, with its link on hover: another link is a change.
      const src = typeof node.attrs?.src === 'string' ? node.attrs.src : '';
      out.push({ kind: 'text', text: `[${embedProvider(node.attrs?.provider)?.name ?? 'Embed'} embed]`, href: src });
    } else if (node.content) {
      inlineTokens(node.content, out);
    } else if (node.text) {
      out.push({ kind: 'text', text: node.text });
    }
  }
  return out;
}

const isInline = (node: DocNode) =>
  node.type === 'text' || node.type === 'mention' || node.type === 'hardBreak' || node.type === 'inlineImage' || node.type === 'date';

/** The document as a flat list of blocks, in reading order. */
export function blocksOf(doc: DocNode | null | undefined): Block[] {
  const out: Block[] = [];
  const walk = (nodes: DocNode[] | undefined, depth: number, quote: boolean) => {
    for (const node of nodes ?? []) {
      switch (node.type) {
        case 'paragraph':
          out.push({ kind: 'paragraph', depth, quote, tokens: inlineTokens(node.content) });
          break;
        case 'heading':
          out.push({ kind: 'heading', level: Number(node.attrs?.level ?? 1), depth, quote, tokens: inlineTokens(node.content) });
          break;
        case 'blockquote':
          walk(node.content, depth, true);
          break;
        case 'bulletList':
        case 'orderedList':
        case 'taskList': {
          const start = Number(node.attrs?.start ?? 1);
          (node.content ?? []).forEach((item, i) => {
            const marker = node.type === 'orderedList' ? `${start + i}.` : node.type === 'taskList' ? (item.attrs?.checked ? '☑' : '☐') : '•';
            const [first, ...rest] = item.content ?? [];
            const firstIsText = first && (first.type === 'paragraph' || first.type === 'heading');
            out.push({ kind: 'item', marker, depth, quote, tokens: firstIsText ? inlineTokens(first.content) : [] });
            walk(firstIsText ? rest : item.content, depth + 1, quote);
          });
          break;
        }
        case 'codeBlock':
          out.push({ kind: 'code', depth, quote, tokens: inlineTokens(node.content) });
          break;
        case 'table':
          for (const row of node.content ?? []) {
            const tokens: Token[] = [];
            (row.content ?? []).forEach((cell, i) => {
              if (i > 0) tokens.push({ kind: 'cell', text: '|' });
              inlineTokens(cell.content, tokens);
            });
            const header = (row.content ?? []).length > 0 && (row.content ?? []).every((c) => c.type === 'tableHeader');
            out.push({ kind: 'row', header, depth, quote, tokens });
          }
          break;
        case 'horizontalRule':
          out.push({ kind: 'rule', depth, quote, tokens: [] });
          break;
        case 'image':
          out.push({ kind: 'image', depth, quote, tokens: inlineTokens([node]) });
          break;
        default:
          // A block this screen does not know (added later to the schema): its text, or what it holds.
          if (!node.content?.length || node.content.every(isInline)) out.push({ kind: 'other', depth, quote, tokens: inlineTokens(node.content ?? [node]) });
          else walk(node.content, depth, quote);
      }
    }
  };
  walk(doc?.content, 0, false);
  return out;
}

const tokenKey = (t: Token) => `${t.kind}\u0001${t.text}\u0001${t.href ?? ''}`;
const blockKey = (b: Block) =>
  `${b.kind}|${b.level ?? ''}|${b.depth}|${b.quote ? 'q' : ''}|${b.marker ?? ''}|${b.header ? 'h' : ''}|${b.tokens.map(tokenKey).join('\u0002')}`;

/** Shared words over all words (Dice), to tell an edited block from a replaced one. */
function similarity(a: Block, b: Block): number {
  const words = (x: Block) => x.tokens.filter((t) => t.text.trim()).map(tokenKey);
  const wa = words(a);
  const wb = words(b);
  if (wa.length + wb.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wb) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  return (2 * common) / (wa.length + wb.length);
}

const sameFamily = (a: Block, b: Block) => a.kind === b.kind || (a.kind !== 'code' && b.kind !== 'code' && a.kind !== 'row' && b.kind !== 'row');

/** Word-level changes inside one block. */
export function wordParts(before: Block, after: Block): Part[] {
  const changes = diffArrays(before.tokens.map(tokenKey), after.tokens.map(tokenKey));
  const parts: Part[] = [];
  let i = 0;
  let j = 0;
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.added) {
      parts.push({ op: 'add', tokens: after.tokens.slice(j, j + n) });
      j += n;
    } else if (c.removed) {
      parts.push({ op: 'del', tokens: before.tokens.slice(i, i + n) });
      i += n;
    } else {
      parts.push({ op: 'same', tokens: after.tokens.slice(j, j + n) });
      i += n;
      j += n;
    }
  }
  return parts;
}

/** A run of removed blocks and the run of added ones beside it, as rows: similar blocks paired as changed, in order. */
function pairRuns(removed: Block[], added: Block[], rows: Row[]) {
  if (removed.length > MAX_PAIRING || added.length > MAX_PAIRING) {
    for (const block of removed) rows.push({ op: 'del', block });
    for (const block of added) rows.push({ op: 'add', block });
    return;
  }
  let j = 0;
  for (let i = 0; i < removed.length; i++) {
    const r = removed[i];
    let match = -1;
    for (let k = j; k < added.length; k++) {
      if (sameFamily(r, added[k]) && similarity(r, added[k]) >= 0.4) {
        match = k;
        break;
      }
    }
    if (match < 0) {
      rows.push({ op: 'del', block: r });
      continue;
    }
    for (; j < match; j++) rows.push({ op: 'add', block: added[j] });
    rows.push({ op: 'change', before: r, after: added[match], parts: wordParts(r, added[match]) });
    j = match + 1;
  }
  for (; j < added.length; j++) rows.push({ op: 'add', block: added[j] });
}

/** Long runs of unchanged blocks become one "skip" row, keeping CONTEXT blocks beside each change. */
function collapse(rows: Row[]): Row[] {
  const out: Row[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i].op !== 'same') {
      out.push(rows[i++]);
      continue;
    }
    let end = i;
    while (end < rows.length && rows[end].op === 'same') end++;
    const keepBefore = i === 0 ? 0 : CONTEXT;
    const keepAfter = end === rows.length ? 0 : CONTEXT;
    if (end - i > keepBefore + keepAfter + 1) {
      out.push(...rows.slice(i, i + keepBefore));
      out.push({ op: 'skip', blocks: rows.slice(i + keepBefore, end - keepAfter).map((r) => (r as { block: Block }).block) });
      out.push(...rows.slice(end - keepAfter, end));
    } else {
      out.push(...rows.slice(i, end));
    }
    i = end;
  }
  return out;
}

/** The block diff of two documents, `before` the older. */
export function blockDiff(beforeDoc: DocNode | null | undefined, afterDoc: DocNode | null | undefined): BlockDiff {
  const before = blocksOf(beforeDoc);
  const after = blocksOf(afterDoc);
  const changes = diffArrays(before.map(blockKey), after.map(blockKey), { maxEditLength: MAX_BLOCK_EDITS }) ?? [
    { value: before.map(blockKey), removed: true, added: false, count: before.length },
    { value: after.map(blockKey), removed: false, added: true, count: after.length },
  ];
  const rows: Row[] = [];
  let i = 0;
  let j = 0;
  let removedRun: Block[] = [];
  let addedRun: Block[] = [];
  const flush = () => {
    if (removedRun.length || addedRun.length) pairRuns(removedRun, addedRun, rows);
    removedRun = [];
    addedRun = [];
  };
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.removed) {
      removedRun.push(...before.slice(i, i + n));
      i += n;
    } else if (c.added) {
      addedRun.push(...after.slice(j, j + n));
      j += n;
    } else {
      flush();
      for (const block of after.slice(j, j + n)) rows.push({ op: 'same', block });
      i += n;
      j += n;
    }
  }
  flush();
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const r of rows) {
    if (r.op === 'add') added++;
    else if (r.op === 'del') removed++;
    else if (r.op === 'change') changed++;
  }
  return { rows: collapse(rows), added, removed, changed, blocks: [before.length, after.length] };
}
