import { parse } from 'yaml';

const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** YAML front matter at the top of a Markdown file, split from the body; bad YAML is treated as no front matter. */
export function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  try {
    const data = parse(match[1]) as unknown;
    return { data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}, body: text.slice(match[0].length) };
  } catch {
    return { data: {}, body: text };
  }
}

/** The `title` of the front matter, when it is a non-empty string. */
export function frontMatterTitle(text: string): string | null {
  const title = splitFrontMatter(text).data.title;
  return typeof title === 'string' && title.trim() ? title.trim() : null;
}
