import type { ResearchCoverage, ResearchOutputMode } from '../../../db/tables/research.js';
import type { Selection } from './select.js';

/** What a writer gets: the topic, the mode, the numbered passages and sources. */
export interface WriterInput {
  topic: string;
  mode: ResearchOutputMode;
  selection: Selection;
}

/** What a writer gives: the summary and the body (without the Sources and method sections, added after). */
export interface WrittenReport {
  summary: string;
  body: string;
}

/** Text safe inside a Markdown link label or list item: no brackets or line breaks that would break the syntax. */
export function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([[\]\\`])/g, '\\$1')
    .trim();
}

function linkTarget(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => encodeURIComponent(c));
}

export function sourcesSection(selection: Selection): string {
  if (!selection.sources.length) return '## Sources\n\nNone: nothing relevant was found.';
  const lines = selection.sources.map(
    (s, i) => `${i + 1}. [${inline(s.title) || 'Untitled'}](${linkTarget(s.url)}) (${s.kind}, relevance ${s.relevance.toFixed(2)})`,
  );
  return `## Sources\n\n${lines.join('\n')}`;
}

const COVERAGE_LABEL: Record<ResearchCoverage['status'], string> = {
  searched: 'searched',
  partial: 'partly searched',
  skipped: 'not searched',
  failed: 'failed',
};

export function methodSection(coverage: ResearchCoverage[], notes: string[]): string {
  const lines = coverage.map((c) => `- **${c.source}** (${COVERAGE_LABEL[c.status]}): ${inline(c.detail)}`);
  for (const n of notes) lines.push(`- ${inline(n)}`);
  return `## How this report was made\n\n${lines.join('\n')}`;
}

/** The whole Markdown document of a report. */
export function assemble(written: WrittenReport, selection: Selection, coverage: ResearchCoverage[], notes: string[]): string {
  return [written.body.trim(), sourcesSection(selection), methodSection(coverage, notes)].filter(Boolean).join('\n\n') + '\n';
}
