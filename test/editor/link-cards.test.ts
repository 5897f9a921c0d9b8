import { describe, expect, it } from 'vitest';
import { readPageMeta } from '../../src/areas/link-previews/link-previews.meta.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { checkLinkCardUrl, MAX_LINK_CARD_URL } from '../../src/editor/link-cards.js';
import { AppError } from '../../src/errors.js';

const docOf = (...content: object[]) => ({ type: 'doc', content });
const card = (url: string, title: string | null = null) => ({ type: 'linkCard', attrs: { url, title } });
const p = (t: string) => ({ type: 'paragraph', content: [{ type: 'text', text: t }] });

function refused(json: unknown): string {
  try {
    validateDocument(json);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    return (err as AppError).message;
  }
  throw new Error('expected the document to be refused');
}

describe('linkCard: which links it takes', () => {
  it('takes any http or https link, with a port, query and fragment', () => {
    for (const url of ['https://example.com', 'http://example.com:8080/a/b?c=1#d', 'https://sub.example.co.uk/path_(x)', 'https://[2001:db8::1]/x']) {
      expect(checkLinkCardUrl(url), url).toMatchObject({ ok: true, url });
      expect((validateDocument(docOf(card(url))).content as unknown[])[0]).toEqual(card(url));
    }
  });

  it('refuses other schemes, relative links, credentials, spaces and control characters, and links past 2048 characters', () => {
    const cases: [unknown, RegExp][] = [
      ['javascript:alert(1)', /http or https, not javascript:/],
      ['java\tscript:alert(1)', /without spaces, control characters/],
      ['data:text/html,<b>x</b>', /http or https, not data:/],
      ['mailto:a@example.com', /http or https, not mailto:/],
      ['/api/v1/pages', /full http\(s\) address/],
      ['https://user:secret@example.com/', /user name or password/],
      ['https://example.com/a b', /without spaces/],
      ['https://example.com\\@evil.com', /backslashes/],
      [`https://example.com/${'a'.repeat(MAX_LINK_CARD_URL)}`, /at most 2048 characters/],
      ['', /needs a link/],
      [42, /needs a link/],
    ];
    for (const [url, reason] of cases) {
      const check = checkLinkCardUrl(url);
      expect(check.ok, String(url)).toBe(false);
      if (typeof url === 'string' && url) expect(refused(docOf(card(url)))).toMatch(reason);
    }
    expect(refused(docOf({ type: 'linkCard' }))).toMatch(/attribute "url" of linkCard is required/);
    expect(refused(docOf({ type: 'linkCard', attrs: { url: 'https://example.com', title: 'a\nb' } }))).toMatch(/control characters/);
    expect(refused(docOf({ type: 'linkCard', attrs: { url: 'https://example.com', title: 'x'.repeat(301) } }))).toMatch(/at most 300/);
    expect(refused(docOf({ type: 'linkCard', attrs: { url: 'https://example.com', icon: 'x' } }))).toMatch(/unknown attribute "icon"/);
  });
});

describe('linkCard: Markdown, HTML and search text', () => {
  it('Markdown: ::link[url] round-trips (the title is not written; ::bookmark[url] reads too)', () => {
    const doc = validateDocument(docOf(p('Further reading:'), card('https://example.com/guide?x=1&y=[2]', 'The guide')));
    const md = documentToMarkdown(doc);
    expect(md).toBe('Further reading:\n\n::link[https://example.com/guide?x=1&y=[2]]\n');
    expect(markdownToDocument(md).content).toEqual([p('Further reading:'), card('https://example.com/guide?x=1&y=[2]')]);
    expect(markdownToDocument('::bookmark[http://example.org/]  \n').content).toEqual([card('http://example.org/')]);
    const again = markdownToDocument(md);
    expect(documentToMarkdown(again)).toBe(md);
  });

  it('Markdown: a link a card does not take stays text', () => {
    for (const line of ['::link[javascript:alert(1)]', '::link[]', '::link[https://a:b@example.com/]', 'see ::link[https://example.com]']) {
      const doc = markdownToDocument(line);
      expect(JSON.stringify(doc), line).not.toContain('linkCard');
    }
  });

  it('HTML: a plain <a data-link-card> card, read back with its title', () => {
    const doc = validateDocument(docOf(card('https://example.com/a?b=1&c=2', 'Example <site>'), card('https://example.org/')));
    const html = documentToHtml(doc);
    expect(html).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" class="link-card" data-link-card="" rel="noopener noreferrer">Example &lt;site&gt;</a>' +
        '<a href="https://example.org/" class="link-card" data-link-card="" rel="noopener noreferrer">https://example.org/</a>',
    );
    expect(htmlToDocument(html)).toEqual({ doc, dropped: [] });
    // A card whose link is not one a card takes is read as ordinary linked text (the link mark's own rules apply).
    expect(JSON.stringify(htmlToDocument('<a data-link-card href="javascript:alert(1)">x</a>').doc)).not.toContain('linkCard');
    // The public share page keeps it a link.
    expect(readerContent(doc).html).toContain('href="https://example.com/a?b=1&amp;c=2"');
  });

  it('search text holds the cached title and the link', () => {
    expect(documentToText(validateDocument(docOf(p('Intro'), card('https://example.com/caching', 'Caching guide'))))).toBe(
      'Intro\nCaching guide https://example.com/caching',
    );
    expect(documentToText(validateDocument(docOf(card('https://example.com/x'))))).toBe('https://example.com/x');
  });
});

describe('readPageMeta', () => {
  it('reads the head only, prefers Open Graph, decodes entities, resolves the icon against <base>', () => {
    const meta = readPageMeta(
      `<html><head><base href="https://cdn.example.com/assets/"><title>T &amp; co</title><meta name="description" content="Plain"><link rel="icon" href="i.png"></head>
       <body><meta property="og:title" content="late"></body></html>`,
      'https://example.com/page',
    );
    expect(meta).toEqual({ title: 'T & co', description: 'Plain', siteName: null, iconUrl: 'https://cdn.example.com/assets/i.png' });
    expect(readPageMeta('<link rel="icon" href="javascript:alert(1)">', 'https://example.com/a').iconUrl).toBe('https://example.com/favicon.ico');
  });
});
