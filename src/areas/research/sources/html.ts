import { decodeHTML } from 'entities';

/**
 * The readable text of an HTML page: scripts, styles, navigation and other chrome dropped, block elements as
 * line breaks, entities decoded. Enough for passages; not a renderer.
 */
export function htmlToText(html: string): { title: string; text: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? decodeHTML(titleMatch[1]).replace(/\s+/g, ' ').trim() : '';
  const main = /<(main|article)\b[^>]*>([\s\S]*?)<\/\1>/i.exec(html)?.[2] ?? /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const text = main
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|svg|nav|header|footer|aside|form|template|iframe)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|section|article|li|ul|ol|h[1-6]|tr|table|blockquote|pre|dd|dt|main)\b[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, ' ');
  return {
    title,
    text: decodeHTML(text)
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  };
}
