import { confluenceSource } from './confluence.js';
import { htmlSource } from './html.js';
import { markdownSource } from './markdown.js';
import { notionSource } from './notion.js';
import { obsidianSource } from './obsidian.js';
import type { ImportSource, SourceName } from './source.js';

/** Every source by name; `convert` is looked up here in the CPU pool's thread too. */
export const importSources: Record<SourceName, ImportSource> = {
  markdown: markdownSource,
  notion: notionSource,
  confluence: confluenceSource,
  obsidian: obsidianSource,
  html: htmlSource,
};

/**
 * The order `auto` tries them in: kb's own export first (its manifest is unmistakable), then the tools whose exports
 * have a mark of their own (Notion's ids in file names, Confluence's index.html, an Obsidian vault's `.obsidian/`
 * or wikilinks), then plain Markdown, then plain HTML.
 */
export const DETECTION_ORDER: SourceName[] = ['notion', 'confluence', 'obsidian', 'markdown', 'html'];
