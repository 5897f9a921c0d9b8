import type { Node as PMNode } from '@tiptap/pm/model';
import { documentToMarkdown, parseDocument, schema } from '../../editor/index.js';
import { isLiveBlock } from '../../editor/live-blocks.js';

/** A passage of a page: a section along headings and paragraphs, about 200–400 words. */
export interface Passage {
  /** The headings above it, outermost first, joined by " › " ('' before the first heading). */
  headingPath: string;
  /** Markdown. */
  content: string;
  wordCount: number;
}

/** A passage is closed once it would pass this many words. */
export const MAX_WORDS = 400;
/** A heading starts a new passage unless the open one is shorter than this (a title and a line above a subheading). */
export const MIN_WORDS = 30;
/** A block longer than MAX_WORDS is cut into pieces of about this size, at sentence ends. */
const PIECE_WORDS = 300;
/** Most passages kept of one page (about 100,000 words). */
export const MAX_PASSAGES = 300;
export const HEADING_SEPARATOR = ' › ';

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * Cuts a page into passages: a new passage at each heading (unless the open one is still short), blocks packed up
 * to MAX_WORDS, a longer block cut at sentence ends. Each passage carries its heading path. An empty page gives no
 * passage (the indexer then indexes its title alone).
 */
export function chunkDocument(content: unknown): Passage[] {
  let doc: PMNode;
  try {
    doc = parseDocument(content);
  } catch {
    return [];
  }
  const out: Passage[] = [];
  const headings: Array<{ level: number; text: string }> = [];
  let open: { headingPath: string; parts: string[]; wordCount: number } | null = null;
  const path = () => headings.map((h) => h.text).join(HEADING_SEPARATOR);
  const flush = () => {
    if (open && open.wordCount > 0) out.push({ headingPath: open.headingPath, content: open.parts.join('\n\n'), wordCount: open.wordCount });
    open = null;
  };
  const add = (text: string, count: number) => {
    if (open && open.wordCount + count > MAX_WORDS) flush();
    open ??= { headingPath: path(), parts: [], wordCount: 0 };
    open.parts.push(text);
    open.wordCount += count;
  };

  doc.forEach((block) => {
    if (out.length >= MAX_PASSAGES || isLiveBlock(block.type.name)) return;
    const markdown = documentToMarkdown(schema.topNodeType.create(null, block)).trim();
    if (block.type.name === 'heading') {
      const text = block.textContent.trim();
      if (!text) return;
      const level = Number(block.attrs.level) || 1;
      while (headings.length && (headings.at(-1)?.level ?? 0) >= level) headings.pop();
      headings.push({ level, text });
      if (open && open.wordCount >= MIN_WORDS) flush();
      // A short opening (a title and a line) joins the section below it, which then names the passage.
      const below = path();
      if (open && (open.headingPath === '' || below.startsWith(`${open.headingPath}${HEADING_SEPARATOR}`))) open.headingPath = below;
      add(markdown, words(text));
      return;
    }
    if (!markdown) return;
    const count = words(markdown);
    if (count <= MAX_WORDS) {
      add(markdown, count);
      return;
    }
    for (const piece of pieces(markdown)) {
      flush();
      add(piece, words(piece));
    }
  });
  flush();
  return out.slice(0, MAX_PASSAGES);
}

/** A long block in pieces of about PIECE_WORDS words, cut at sentence ends (or between words in a run-on). */
function pieces(text: string): string[] {
  const sentences = [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)].map((s) => s.segment);
  const out: string[] = [];
  let current = '';
  let count = 0;
  const push = () => {
    if (current.trim()) out.push(current.trim());
    current = '';
    count = 0;
  };
  for (const sentence of sentences) {
    const n = words(sentence);
    if (n > PIECE_WORDS) {
      push();
      const w = sentence.split(/\s+/).filter(Boolean);
      for (let i = 0; i < w.length; i += PIECE_WORDS) out.push(w.slice(i, i + PIECE_WORDS).join(' '));
      continue;
    }
    if (count + n > PIECE_WORDS) push();
    current += sentence;
    count += n;
  }
  push();
  return out;
}

/** What is embedded and indexed for a passage: the page title and heading path give the passage its context. */
export function embeddingText(title: string, headingPath: string, content: string): string {
  return [title, headingPath, content].filter(Boolean).join('\n');
}
