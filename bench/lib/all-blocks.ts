/**
 * Markdown pages for the web app's speed goals (issue 30), each about `words` words long:
 * - `allBlocksMarkdown`: every kind of block and mark the editor has, repeated in sections until the length is reached;
 * - `plainMarkdown`: the same number of words as headings and paragraphs only (the baseline);
 * - `diagramsAndEmbedsMarkdown` / its baseline: the same text with 10 Mermaid diagrams and 10 embeds between its
 *   paragraphs, or without them.
 * `attachment` is an uploaded image's download address (for the image, file, video and audio blocks).
 */
const SENTENCE = 'Our team writes down how we work so that a newcomer can find the answer without asking anyone. ';
const wordsOf = (s: string) => s.split(/\s+/).filter(Boolean).length;

function section(i: number, attachment: string): string {
  const parts = [
    `## Section ${i}: how we decide`,
    `${SENTENCE}We keep **bold words**, *emphasis*, ~~old rules~~, \`inline code\`, ==highlights==, <span data-color="red">red text</span>, <mark data-color="blue">blue ground</mark> and a [link](https://example.com/${i}) on :date[2026-12-07].`,
    `:::info\nCallout ${i}: ${SENTENCE}\n:::`,
    `<details>\n<summary>Toggle ${i}</summary>\n\n${SENTENCE}\n\n</details>`,
    `- ${SENTENCE}\n- second point ${i}\n  - nested point`,
    `1. first step\n2. second step ${i}`,
    `- [ ] open item ${i}\n- [x] done item`,
    `> ${SENTENCE}`,
    `Inline maths $e^{i\\pi} + ${i} = 0$ and a block:\n\n$$\n\\int_0^${i} x^2\\,dx\n$$`,
    '```ts\n' + `export const answer${i} = ${i} * 2;\n` + '```',
    '```mermaid\n' + `graph TD\n  A${i}[Idea] --> B${i}[Decision]\n` + '```',
    `| Day | What |\n|---|---|\n| Monday ${i} | Meet the team |\n| Tuesday | First change |`,
    `![Diagram ${i}](${attachment} "Figure ${i}"){width=50% align=center}`,
    `::::columns\n:::column\nLeft ${i}: ${SENTENCE}\n:::\n:::column\nRight ${i}: see the note.[^${i}]\n:::\n::::`,
    `[^${i}]: Footnote ${i} of the page.`,
    `::embed[https://www.youtube.com/watch?v=dQw4w9WgXc${i % 10}]`,
    `::link[https://example.com/guide-${i}]`,
    `::file[notes-${i}.txt](${attachment}){size=1234 type="text/plain"}`,
    '---',
    `${SENTENCE.repeat(6)}`,
  ];
  return parts.join('\n\n');
}

export function allBlocksMarkdown(words: number, attachment: string): string {
  const out = ['::toc', `${SENTENCE.repeat(3)}`];
  for (let i = 1; wordsOf(out.join('\n')) < words; i++) out.push(section(i, attachment));
  out.push('::subpages', 'The very end.');
  return out.join('\n\n');
}

export function plainMarkdown(words: number): string {
  const out: string[] = [];
  for (let i = 1; wordsOf(out.join('\n')) < words; i++) out.push(i % 6 === 1 ? `## Section ${i}` : SENTENCE.repeat(4));
  out.push('The very end.');
  return out.join('\n\n');
}

/** The same ~`words` of text with, when `heavy`, 10 diagrams and 10 embeds after the first 10 paragraphs. */
export function diagramsAndEmbedsMarkdown(words: number, heavy: boolean): string {
  const paragraph = SENTENCE.repeat(4);
  const out: string[] = [];
  for (let i = 0; i < Math.max(10, Math.ceil(words / wordsOf(paragraph))); i++) {
    out.push(paragraph);
    if (heavy && i < 10)
      out.push('```mermaid\n' + `graph LR\n  A${i}[Draft] --> B${i}[Review] --> C${i}[Publish]\n` + '```', `::embed[https://vimeo.com/7610${i}]`);
  }
  out.push('The very end.');
  return out.join('\n\n');
}
