import type { ImportJob } from './imports.queries';

/** How an import's state reads to a person. */

export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const SOURCE_NAMES: Record<string, string> = {
  markdown: 'Markdown files',
  html: 'HTML files',
  notion: 'a Notion export',
  confluence: 'a Confluence export',
  obsidian: 'an Obsidian vault',
};

export function importProgressText(job: ImportJob): string {
  const { done, total } = job.progress;
  if (job.status === 'succeeded') {
    const made = `Imported ${plural(job.result?.pages ?? 0, 'page')} and ${plural(job.result?.attachments ?? 0, 'attachment')}`;
    const read = job.detectedSource && job.source === 'auto' ? ` (read as ${SOURCE_NAMES[job.detectedSource] ?? job.detectedSource})` : '';
    return `${made}${read}.`;
  }
  if (total > 0) return `${done} of ${total} pages and attachments written…`;
  return job.status === 'queued' ? 'Waiting to start…' : 'Reading the file…';
}
