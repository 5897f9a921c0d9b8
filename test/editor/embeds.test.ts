import { describe, expect, it } from 'vitest';
import { renderExportPages } from '../../src/areas/exports/exports.render.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { ALLOWED_EMBED_PROVIDERS, checkEmbedUrl, EMBED_FRAME_HOSTS, EMBED_PROVIDERS } from '../../src/editor/embeds.js';
import { htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { documentToYState, yStateToSnapshot } from '../../src/editor/ydoc.js';
import { APP_CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.js';
import { docOf, p, refused, text } from './helpers.js';

const embed = (src: string, provider?: string | null) => ({ type: 'embed', attrs: provider === undefined ? { src } : { src, provider } });
const linkTo = (href: string) => ({ type: 'link', attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null } });

const YT = 'dQw4w9WgXcQ';
const FIGMA_KEY = 'RQig21VLvHtVpfQBSRUQWw';
const GOOGLE_ID = '1aBcD_efGhIjKlMnOpQrStUvWxYz0123456789abcdEF';
const LOOM_ID = '0281766fa2d04bb788eaf19e65135184';
const figmaFrame = (file: string) => `https://www.figma.com/embed?embed_host=kb&url=${encodeURIComponent(file)}`;

/** Every form each provider takes: [link as given, provider, the frame's address]. */
const ACCEPTED: [string, string, string][] = [
  [`https://www.youtube.com/watch?v=${YT}`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}`],
  [`https://youtube.com/watch?v=${YT}&t=1m5s`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}?start=65`],
  [`https://m.youtube.com/watch?feature=share&v=${YT}&list=PL123&autoplay=1`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}`],
  [`https://youtu.be/${YT}?t=42`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}?start=42`],
  ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'youtube', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'],
  [`https://www.youtube.com/embed/${YT}`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}`],
  [`https://www.youtube-nocookie.com/embed/${YT}?start=10`, 'youtube', `https://www.youtube-nocookie.com/embed/${YT}?start=10`],
  ['https://vimeo.com/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
  ['https://vimeo.com/76979871/8272103f6e', 'vimeo', 'https://player.vimeo.com/video/76979871?h=8272103f6e'],
  ['https://vimeo.com/channels/staffpicks/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
  ['https://player.vimeo.com/video/76979871?h=8272103f6e&badge=0', 'vimeo', 'https://player.vimeo.com/video/76979871?h=8272103f6e'],
  [`https://www.loom.com/share/${LOOM_ID}`, 'loom', `https://www.loom.com/embed/${LOOM_ID}`],
  [`https://www.loom.com/share/Quarterly-review-${LOOM_ID}?sid=abc`, 'loom', `https://www.loom.com/embed/${LOOM_ID}`],
  [`https://www.figma.com/file/${FIGMA_KEY}/Logo?node-id=238%3A334`, 'figma', figmaFrame(`https://www.figma.com/file/${FIGMA_KEY}?node-id=238-334`)],
  [`https://www.figma.com/design/${FIGMA_KEY}/Logo?node-id=1-2&t=abc`, 'figma', figmaFrame(`https://www.figma.com/design/${FIGMA_KEY}?node-id=1-2`)],
  [`https://figma.com/proto/${FIGMA_KEY}/Logo?page-id=0%3A1`, 'figma', figmaFrame(`https://www.figma.com/proto/${FIGMA_KEY}`)],
  [
    `https://www.figma.com/embed?embed_host=share&url=${encodeURIComponent(`https://www.figma.com/file/${FIGMA_KEY}/Logo`)}`,
    'figma',
    figmaFrame(`https://www.figma.com/file/${FIGMA_KEY}`),
  ],
  [`https://docs.google.com/document/d/${GOOGLE_ID}/edit?usp=sharing`, 'google-docs', `https://docs.google.com/document/d/${GOOGLE_ID}/preview`],
  [`https://docs.google.com/spreadsheets/d/${GOOGLE_ID}/edit#gid=0`, 'google-sheets', `https://docs.google.com/spreadsheets/d/${GOOGLE_ID}/preview`],
  [`https://docs.google.com/presentation/d/${GOOGLE_ID}/edit`, 'google-slides', `https://docs.google.com/presentation/d/${GOOGLE_ID}/preview`],
  ['https://miro.com/app/board/uXjVOabc123=/', 'miro', 'https://miro.com/app/live-embed/uXjVOabc123=/'],
  ['https://miro.com/app/board/uXjVOabc123=/?share_link_id=42', 'miro', 'https://miro.com/app/live-embed/uXjVOabc123=/'],
  ['https://codepen.io/team-x/pen/abcXYZ', 'codepen', 'https://codepen.io/team-x/embed/abcXYZ?default-tab=result'],
  ['https://codepen.io/team-x/embed/abcXYZ?default-tab=css', 'codepen', 'https://codepen.io/team-x/embed/abcXYZ?default-tab=result'],
];

/** Links that must never become a frame, and what the refusal says. */
const HOSTILE: [string, RegExp][] = [
  [`http://www.youtube.com/watch?v=${YT}`, /must be https, not http:/],
  ['javascript:alert(1)', /must be https, not javascript:/],
  [`JaVaScRiPt:alert(1)//https://youtu.be/${YT}`, /must be https, not javascript:/],
  ['java\tscript:alert(1)', /without spaces, control characters/],
  ['data:text/html,<script>alert(1)</script>', /must be https, not data:/],
  ['vbscript:msgbox(1)', /not vbscript:/],
  [`//www.youtube.com/watch?v=${YT}`, /full https address/],
  [`https://youtube.com.evil.com/watch?v=${YT}`, /youtube\.com\.evil\.com is not an allowed embed provider/],
  [`https://evil.com/youtube.com/watch?v=${YT}`, /evil\.com is not an allowed embed provider/],
  [`https://evil.com/?u=https://www.youtube.com/watch?v=${YT}`, /evil\.com is not an allowed embed provider/],
  [`https://www.youtube.com@evil.com/watch?v=${YT}`, /user name or password/],
  [`https://user:secret@www.youtube.com/watch?v=${YT}`, /user name or password/],
  [`https://evil.com\\@www.youtube.com/watch?v=${YT}`, /backslashes/],
  [`https://www.youtube.com:8443/watch?v=${YT}`, /must not name a port/],
  [`https://www.yоutube.com/watch?v=${YT}`, /xn--.* is not an allowed embed provider/],
  [`https://www.youtube.com./watch?v=${YT}`, /is not an allowed embed provider/],
  [` https://youtu.be/${YT}`, /without spaces/],
  [`https://youtu.be/${YT}\n`, /without spaces/],
  [`https://www.youtube.com/watch?v=${YT}"onload="alert(1)`, /this www\.youtube\.com link is not one that can be embedded/],
  ['https://www.youtube.com/watch?v=short', /youtube\.com\/watch\?v=…/],
  ['https://www.youtube.com/@somechannel', /not one that can be embedded/],
  ['https://docs.google.com/forms/d/1FAIpQLSfabcdefghijklmnopqrstuvwxyz/viewform', /Google Docs: .*Google Sheets: .*Google Slides: /],
  ['https://miro.com/app/board/../../../evil', /not one that can be embedded/],
  [`https://www.figma.com/embed?embed_host=x&url=${encodeURIComponent(`https://evil.com/file/${FIGMA_KEY}`)}`, /not one that can be embedded/],
  [`https://www.figma.com/embed?embed_host=x&url=${encodeURIComponent(`javascript:alert(1)//https://www.figma.com/file/${FIGMA_KEY}`)}`, /not one/],
  ['https://codepen.io/user/pen/<script>', /not one that can be embedded/],
  [`https://youtu.be/${YT}?x=${'a'.repeat(2100)}`, /at most 2048 characters/],
  ['', /needs a link/],
];

describe('embed: the allow-list', () => {
  it.each(ACCEPTED)('embeds %s', (src, provider, frameUrl) => {
    const check = checkEmbedUrl(src);
    expect(check).toMatchObject({ ok: true, src, frameUrl, provider: { id: provider } });
    expect(validateDocument(docOf(embed(src)))).toEqual(docOf(embed(src, provider)));
  });

  it('covers every provider, and the CSP frames exactly their players’ hosts', () => {
    expect(new Set(ACCEPTED.map(([, id]) => id))).toEqual(new Set(EMBED_PROVIDERS.map((p) => p.id)));
    for (const [src] of ACCEPTED) {
      const check = checkEmbedUrl(src);
      if (check.ok) expect(EMBED_FRAME_HOSTS).toContain(new URL(check.frameUrl).hostname);
    }
    const frameSrc = APP_CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('frame-src '));
    expect(frameSrc?.split(' ').slice(1).sort()).toEqual(EMBED_FRAME_HOSTS.map((h) => `https://${h}`).sort());
    expect(EMBED_FRAME_HOSTS).toEqual([
      'codepen.io',
      'docs.google.com',
      'embed.figma.com',
      'miro.com',
      'player.vimeo.com',
      'www.figma.com',
      'www.loom.com',
      'www.youtube-nocookie.com',
    ]);
  });

  it.each(HOSTILE)('refuses %j', (src, why) => {
    const check = checkEmbedUrl(src);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reason).toMatch(why);
    expect(check.reason).toContain(`embeds may show ${ALLOWED_EMBED_PROVIDERS}`);
    expect(refused(docOf(embed(src)))).toContain('YouTube, Vimeo, Loom, Figma, Google Docs, Google Sheets, Google Slides, Miro and CodePen');
  });

  it('builds the frame from the ids it read, never from the link as given', () => {
    const check = checkEmbedUrl(`https://www.youtube.com/watch?v=${YT}&autoplay=1&origin=https://evil.com&list=PL1#x`);
    expect(check.ok && check.frameUrl).toBe(`https://www.youtube-nocookie.com/embed/${YT}`);
    const figma = checkEmbedUrl(`https://www.figma.com/file/${FIGMA_KEY}/Name?node-id=1%3A2%26x%3D%3Cscript%3E`);
    expect(figma.ok && figma.frameUrl).toBe(figmaFrame(`https://www.figma.com/file/${FIGMA_KEY}`));
  });

  it('derives provider: filled in when left out, refused when it disagrees or is unknown; src is required', () => {
    expect(validateDocument(docOf(embed(`https://youtu.be/${YT}`, null)))).toEqual(docOf(embed(`https://youtu.be/${YT}`, 'youtube')));
    expect(refused(docOf(embed(`https://youtu.be/${YT}`, 'vimeo')))).toMatch(/"provider" of embed is "vimeo" but its src is a YouTube link/);
    expect(refused(docOf(embed(`https://youtu.be/${YT}`, 'evil')))).toMatch(/"provider" of embed is "evil"/);
    expect(refused(docOf({ type: 'embed' }))).toMatch(/"src" of embed is required/);
    expect(refused(docOf({ type: 'embed', attrs: { src: 42 } }))).toMatch(/"src" of embed is required/);
    expect(refused(docOf({ type: 'embed', attrs: { src: `https://youtu.be/${YT}`, onload: 'x' } }))).toMatch(/unknown attribute "onload"/);
    expect(refused(docOf(p(embed(`https://youtu.be/${YT}`))))).toMatch(/not allowed here inside paragraph|content\[0\]/);
    // Nested where blocks go: in a callout, a list item, a table cell.
    const nested = docOf({ type: 'callout', attrs: { type: 'info', icon: null }, content: [embed(`https://youtu.be/${YT}`)] });
    expect(validateDocument(nested)).toEqual(
      docOf({ type: 'callout', attrs: { type: 'info', icon: null }, content: [embed(`https://youtu.be/${YT}`, 'youtube')] }),
    );
  });
});

const SRC = `https://www.youtube.com/watch?v=${YT}&t=1m5s`;
const ALL = docOf(
  p(text('Watch this:')),
  embed(SRC, 'youtube'),
  embed(`https://www.figma.com/design/${FIGMA_KEY}/Logo?node-id=1-2`, 'figma'),
  embed(`https://docs.google.com/spreadsheets/d/${GOOGLE_ID}/edit`, 'google-sheets'),
  p(text('Done.')),
);

describe('embed: Markdown', () => {
  it('writes ::embed[<link>] on its own line and reads it back identical', () => {
    const md = documentToMarkdown(ALL);
    expect(md).toBe(
      [
        'Watch this:',
        '',
        `::embed[${SRC}]`,
        '',
        `::embed[https://www.figma.com/design/${FIGMA_KEY}/Logo?node-id=1-2]`,
        '',
        `::embed[https://docs.google.com/spreadsheets/d/${GOOGLE_ID}/edit]`,
        '',
        'Done.',
        '',
      ].join('\n'),
    );
    expect(markdownToDocument(md)).toEqual(ALL);
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
    // Inside a callout and a quote too.
    const nested = `:::info\n::embed[https://vimeo.com/76979871]\n\n:::\n\n> ::embed[https://codepen.io/a/pen/abc]\n`;
    expect(documentToMarkdown(markdownToDocument(nested))).toBe(nested);
  });

  it('keeps a link it may not embed as a paragraph linking to it, and anything else as text: never an error', () => {
    expect(markdownToDocument('::embed[https://evil.com/x]\n')).toEqual(docOf(p(text('https://evil.com/x', [linkTo('https://evil.com/x')]))));
    expect(markdownToDocument(`::embed[http://www.youtube.com/watch?v=${YT}]\n`)).toEqual(
      docOf(p(text(`http://www.youtube.com/watch?v=${YT}`, [linkTo(`http://www.youtube.com/watch?v=${YT}`)]))),
    );
    expect(markdownToDocument(`::embed[https://youtube.com.evil.com/watch?v=${YT}]`).content).toEqual([
      p(text(`https://youtube.com.evil.com/watch?v=${YT}`, [linkTo(`https://youtube.com.evil.com/watch?v=${YT}`)])),
    ]);
    expect(markdownToDocument('::embed[javascript:alert(1)]\n')).toEqual(docOf(p(text('::embed[javascript:alert(1)]'))));
    expect(markdownToDocument('::embed[data:text/html,<b>x</b>]\n')).toEqual(docOf(p(text('::embed[data:text/html,<b>x</b>]'))));
    expect(markdownToDocument('::embed[]\n')).toEqual(docOf(p(text('::embed[]'))));
    expect(markdownToDocument(`::embed[https://user:pw@youtu.be/${YT}]\n`).content).toHaveLength(1);
    const long = `https://youtu.be/${YT}?x=${'a'.repeat(2100)}`;
    expect(markdownToDocument(`::embed[${long}]\n`)).toEqual(docOf(p(text(`::embed[${long}]`))));
    // Not on a line of its own: text, as written.
    expect(markdownToDocument(`See ::embed[https://youtu.be/${YT}] here\n`)).toEqual(docOf(p(text(`See ::embed[https://youtu.be/${YT}] here`))));
    // And the text written back reads as the same text.
    const md = documentToMarkdown(markdownToDocument('::embed[javascript:alert(1)]\n'));
    expect(markdownToDocument(md)).toEqual(docOf(p(text('::embed[javascript:alert(1)]'))));
  });
});

describe('embed: HTML, text, reader, co-editing', () => {
  it('exports a figure with a sandboxed, lazy frame and a plain link, which imports back as the same document', () => {
    const [html] = renderExportPages({ format: 'html', pages: [{ id: 'p', title: 'T', createdAt: '', updatedAt: '', authors: [], doc: ALL }] });
    const src = SRC.replace(/&/g, '&amp;');
    expect(html).toContain(
      `<figure data-embed="youtube" data-src="${src}" class="embed"><iframe src="https://www.youtube-nocookie.com/embed/${YT}?start=65" loading="lazy" ` +
        'sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" allow="fullscreen" ' +
        'referrerpolicy="strict-origin-when-cross-origin" title="YouTube embed" width="640" height="360"></iframe>' +
        `<figcaption>YouTube: <a href="${src}">${src}</a></figcaption></figure>`,
    );
    expect(html).toContain(`title="Google Sheets embed"`);
    const body = html.slice(html.indexOf('<body>') + 6, html.indexOf('</body>'));
    const back = htmlToDocument(body, { preserveWhitespace: true });
    expect(back.doc).toEqual(ALL);
    expect(back.dropped).toEqual([]);
  });

  it('reads a figure by its link when it has no data-src, and an allowed frame another tool wrote', () => {
    const figure = `<figure data-embed><iframe src="https://evil.com/x"></iframe><figcaption><a href="https://vimeo.com/76979871">v</a></figcaption></figure>`;
    expect(htmlToDocument(figure).doc).toEqual(docOf(embed('https://vimeo.com/76979871', 'vimeo')));
    const pasted = `<p>Intro</p><iframe width="560" height="315" src="https://www.youtube.com/embed/${YT}?si=abc" allowfullscreen></iframe>`;
    const read = htmlToDocument(pasted);
    expect(read.doc).toEqual(docOf(p(text('Intro')), embed(`https://www.youtube.com/embed/${YT}?si=abc`, 'youtube')));
    expect(read.dropped).toEqual([]);
  });

  it('re-validates what HTML says: a figure or frame it may not embed keeps its link, the frame is named as dropped', () => {
    const hostile = `<figure data-embed="youtube" data-src="https://youtube.com.evil.com/watch?v=${YT}"><iframe src="https://evil.com/x"></iframe><figcaption><a href="https://youtube.com.evil.com/watch?v=${YT}">the video</a></figcaption></figure>`;
    const read = htmlToDocument(hostile);
    expect(read.doc).toEqual(docOf(p(text('the video', [{ type: 'link', attrs: { href: `https://youtube.com.evil.com/watch?v=${YT}`, ...NO_LINK_ATTRS } }]))));
    expect(read.dropped).toEqual(['<iframe> is not supported; dropped']);
    const scripted = htmlToDocument(
      '<figure data-embed data-src="javascript:alert(1)"><figcaption>x</figcaption></figure><iframe src="https://evil.com"></iframe>',
    );
    expect(scripted.doc).toEqual(docOf(p(text('x'))));
    expect(scripted.dropped).toEqual(['<iframe> is not supported; dropped']);
  });

  it('gives search the provider and the link', () => {
    const t = documentToText(ALL);
    expect(t).toContain(`YouTube ${SRC}`);
    expect(t).toContain('Figma https://www.figma.com/design/');
    expect(t).toContain('Google Sheets https://docs.google.com/spreadsheets/');
  });

  it('shows a public reader a link card, never a frame', () => {
    const { html } = readerContent(ALL);
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('data-embed');
    const src = SRC.replace(/&/g, '&amp;');
    expect(html).toContain(
      `<figure class="embed-card"><a href="${src}" target="_blank" rel="noopener noreferrer nofollow"><strong>YouTube</strong><span>${src}</span></a></figure>`,
    );
    expect(html).toContain('<strong>Google Sheets</strong>');
  });

  it('goes through the co-editing (Yjs) form unchanged', () => {
    const snap = yStateToSnapshot({ state: documentToYState(ALL), stored: ALL });
    expect(snap.json).toEqual(ALL);
    expect(snap.corrected).toBe(false);
  });
});

const NO_LINK_ATTRS = { target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null };
