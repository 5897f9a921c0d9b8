import { describe, expect, it } from 'vitest';
import { chunkDocument, MAX_WORDS } from '../../src/areas/knowledge/knowledge.chunk.js';
import { fuse } from '../../src/areas/knowledge/knowledge.fusion.js';
import { markdownToDocument } from '../../src/editor/index.js';

const words = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ');

describe('chunkDocument', () => {
  it('starts a passage at each heading, with the heading path, outermost first', () => {
    const doc = markdownToDocument(`# Guide\n\nIntro line.\n\n## Install\n\n${words(40)}.\n\n### On Linux\n\n${words(50)}.\n\n## Configure\n\n${words(45)}.\n`);
    const passages = chunkDocument(doc);
    expect(passages.map((p) => p.headingPath)).toEqual(['Guide › Install', 'Guide › Install › On Linux', 'Guide › Configure']);
    expect(passages[0].content.startsWith('# Guide\n\nIntro line.\n\n## Install')).toBe(true);
    expect(passages[1].content.startsWith('### On Linux')).toBe(true);
  });

  it('packs paragraphs up to 400 words and cuts a long paragraph at sentence ends', () => {
    const sentence = `${words(24)} end.`;
    const long = Array.from({ length: 40 }, () => sentence).join(' '); // 1,000 words in one paragraph
    const doc = markdownToDocument(`## Notes\n\n${words(150)}\n\n${words(150)}\n\n${words(150)}\n\n${long}\n`);
    const passages = chunkDocument(doc);
    expect(passages.length).toBeGreaterThanOrEqual(5);
    for (const p of passages) {
      expect(p.wordCount).toBeLessThanOrEqual(MAX_WORDS);
      expect(p.headingPath).toBe('Notes');
    }
    expect(passages[0].wordCount).toBeGreaterThan(200);
    // The pieces of the long paragraph end at a sentence end.
    for (const p of passages.slice(-3)) expect(p.content.trim().endsWith('end.')).toBe(true);
  });

  it('keeps lists and code as Markdown; an empty or invalid document gives no passage', () => {
    const [p] = chunkDocument(markdownToDocument('- one\n- two\n\n```\ncode here\n```\n'));
    expect(p.content).toContain('- one');
    expect(p.content).toContain('```');
    expect(chunkDocument(markdownToDocument(''))).toEqual([]);
    expect(chunkDocument({ type: 'nonsense' })).toEqual([]);
  });
});

describe('fuse (reciprocal rank fusion)', () => {
  it('ranks what both lists agree on first and scales similarity to 0..1', () => {
    const a = [
      { type: 'page' as const, id: 'x', score: 3 },
      { type: 'page' as const, id: 'y', score: 2 },
    ];
    const b = [
      { type: 'memory' as const, id: 'z', score: 0.9 },
      { type: 'page' as const, id: 'y', score: 0.8 },
    ];
    const out = fuse([a, b], 10);
    expect(out.map((r) => r.id)).toEqual(['y', 'x', 'z']);
    expect(out[0].similarity).toBeLessThanOrEqual(1);
    expect(out[1].similarity).toBeCloseTo(0.5, 5);
    expect(fuse([a, a], 1)).toEqual([{ type: 'page', id: 'x', similarity: 1 }]);
    expect(fuse([[], []], 5)).toEqual([]);
  });
});
