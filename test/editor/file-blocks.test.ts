import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { attachmentIdsIn, publicContent } from '../../src/areas/shares/shares.links.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { checkMediaUrl, humanSize, MAX_FILE_NAME } from '../../src/editor/file-blocks.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { connectMcp, listeningHandbook } from '../helpers/mcp.js';
import { postMultipart } from '../helpers/multipart.js';
import { createSpace, newPage } from '../pages/helpers.js';
import { docOf, p, refused, text } from './helpers.js';

/** File, video and audio blocks (src/editor/file-blocks.ts): validation, Markdown, HTML, search text, and over HTTP. */

const ATTACHMENT = '/api/v1/attachments/0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/download';
const file = (url: string, name: string, size: number | null = null, mime: string | null = null) => ({
  type: 'fileAttachment',
  attrs: { url, name, size, mime },
});
const video = (src: string, title: string | null = null) => ({ type: 'video', attrs: { src, title } });
const audio = (src: string, title: string | null = null) => ({ type: 'audio', attrs: { src, title } });

describe('file, video and audio: what they take', () => {
  it('takes an attachment of this service or an http(s) address, with a name, size and type', () => {
    const doc = docOf(
      file(ATTACHMENT, 'Q3 report.pdf', 123_456, 'application/pdf'),
      file('https://files.example.com/a.zip', 'a.zip'),
      video('https://cdn.example.com/talk.webm', 'The talk'),
      audio('/api/attachments/abc_123/download'),
    );
    expect(validateDocument(doc)).toEqual(doc);
  });

  it('refuses hostile or unusable values, naming the attribute or the rule', () => {
    const cases: [object, RegExp][] = [
      [file('javascript:alert(1)', 'x'), /must be an attachment or http\(s\), not javascript:/],
      [file('java\tscript:alert(1)', 'x'), /without spaces, control characters/],
      [video('data:text/html,<script>alert(1)</script>'), /address of a video must be an attachment or http\(s\), not data:/],
      [audio('data:audio/wav;base64,AAAA'), /not data:/],
      [file('/api/v1/pages/123', 'x'), /attachment of this service \(\/api\/v1\/attachments\/<id>\/download\) or a full http\(s\) address/],
      [file('//evil.example/x', 'x'), /attachment of this service/],
      [file('https://user:pw@example.com/x', 'x'), /user name or password/],
      [file(`https://example.com/${'a'.repeat(2048)}`, 'x'), /at most 2048 characters/],
      [file(ATTACHMENT, 'x'.repeat(MAX_FILE_NAME + 1)), /attribute "name" of fileAttachment must be at most 255 characters/],
      [file(ATTACHMENT, 'a\nb'), /attribute "name" of fileAttachment must be one line/],
      [file(ATTACHMENT, '  '), /attribute "name" of fileAttachment must not be empty/],
      [file(ATTACHMENT, 'a', -1), /attribute "size" of fileAttachment must be null or a whole number of bytes/],
      [file(ATTACHMENT, 'a', 1.5), /whole number of bytes/],
      [file(ATTACHMENT, 'a', 1, 'text/html"><script>'), /attribute "mime" of fileAttachment must be null or a MIME type/],
      [video(ATTACHMENT, 't'.repeat(256)), /attribute "title" of video must be at most 255 characters/],
      [audio(ATTACHMENT, 'a\u2028b'), /attribute "title" of audio must be one line/],
      [{ type: 'fileAttachment', attrs: { url: ATTACHMENT } }, /attribute "name" of fileAttachment is required/],
      [{ type: 'video' }, /attribute "src" of video is required/],
      [{ type: 'audio', attrs: { src: ATTACHMENT, autoplay: true } }, /unknown attribute "autoplay" on node audio/],
    ];
    for (const [node, reason] of cases) expect(refused(docOf(node)), JSON.stringify(node).slice(0, 120)).toMatch(reason);
    expect(checkMediaUrl('https://example.com/a.mp4')).toEqual({ ok: true, url: 'https://example.com/a.mp4' });
  });

  it('says sizes as people read them', () => {
    expect([0, 1, 1023, 1024, 1536, 10 * 1024, 5 * 1024 * 1024 + 1, 3 * 1024 ** 3].map(humanSize)).toEqual([
      '0 bytes',
      '1 byte',
      '1023 bytes',
      '1 KB',
      '1.5 KB',
      '10 KB',
      '5 MB',
      '3 GB',
    ]);
  });
});

describe('file, video and audio: Markdown, HTML and search text', () => {
  const doc = validateDocument(
    docOf(
      p(text('Minutes and the recording:')),
      file(ATTACHMENT, 'notes [draft] \\ v2.txt', 2048, 'text/plain'),
      file('https://files.example.com/a.zip', 'a.zip'),
      video('https://cdn.example.com/talk.webm', 'Kick-off talk'),
      audio(ATTACHMENT),
    ),
  );

  it('Markdown: ::file[name](url){size type}, ::video[title](url), ::audio[title](url) round-trip', () => {
    const md = documentToMarkdown(doc);
    expect(md).toBe(
      [
        'Minutes and the recording:',
        `::file[notes \\[draft\\] \\\\ v2.txt](${ATTACHMENT}){size=2048 type="text/plain"}`,
        '::file[a.zip](https://files.example.com/a.zip)',
        '::video[Kick-off talk](https://cdn.example.com/talk.webm)',
        `::audio[](${ATTACHMENT})`,
      ].join('\n\n') + '\n',
    );
    expect(markdownToDocument(md)).toEqual(doc);
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
  });

  it('Markdown: parentheses and spaces in an address are percent-encoded, and read back as one address', () => {
    const md = documentToMarkdown(validateDocument(docOf(video('https://example.com/a_(1).mp4', 'x'))));
    expect(md).toBe('::video[x](https://example.com/a_%281%29.mp4)\n');
    expect(markdownToDocument(md).content).toEqual([video('https://example.com/a_%281%29.mp4', 'x')]);
  });

  it('Markdown: an address the blocks do not take, or a line with more on it, stays text', () => {
    for (const line of [
      '::file[x](javascript:alert(1))',
      '::video[x](data:text/html,hi)',
      '::audio[x](/etc/passwd)',
      `::file[${'n'.repeat(300)}](${ATTACHMENT})`,
      `see ::file[x](${ATTACHMENT})`,
    ]) {
      const json = JSON.stringify(markdownToDocument(line));
      expect(json, line).not.toMatch(/fileAttachment|"video"|"audio"/);
      expect(json, line).not.toMatch(/"(?:href|src|url)":"javascript:/);
    }
    // An empty name reads as "file"; unknown directive attributes are ignored; a bad type is left out.
    expect(markdownToDocument(`::file[](${ATTACHMENT}){size=12 type="not a type" color=red}`).content).toEqual([file(ATTACHMENT, 'file', 12, null)]);
  });

  it('HTML: a download link with name and size, and players with preload=metadata; read back the same', () => {
    const html = documentToHtml(doc);
    expect(html).toContain(
      `<a href="${ATTACHMENT}" class="file" data-file="" download="notes [draft] \\ v2.txt" data-size="2048" data-type="text/plain">notes [draft] \\ v2.txt<span class="file-size"> (2 KB)</span></a>`,
    );
    expect(html).toContain('<a href="https://files.example.com/a.zip" class="file" data-file="" download="a.zip">a.zip</a>');
    expect(html).toContain(
      '<video src="https://cdn.example.com/talk.webm" controls="" preload="metadata" class="video" title="Kick-off talk"><a href="https://cdn.example.com/talk.webm">Kick-off talk</a></video>',
    );
    expect(html).toContain(`<audio src="${ATTACHMENT}" controls="" preload="metadata" class="audio"><a href="${ATTACHMENT}">${ATTACHMENT}</a></audio>`);
    expect(htmlToDocument(html)).toEqual({ doc, dropped: [] });
  });

  it('HTML import: <video>/<audio> of other tools become blocks (src or <source>); others are dropped and named', () => {
    const { doc: imported, dropped } = htmlToDocument(
      '<p>Intro</p><video controls src="https://example.com/v.mp4" title="Demo"></video>' +
        '<audio controls><source src="https://example.com/a.mp3" type="audio/mpeg">Your browser cannot play this.</audio>' +
        '<video src="javascript:alert(1)"></video><audio src="blob:https://x/1"></audio>',
    );
    expect(imported.content).toEqual([p(text('Intro')), video('https://example.com/v.mp4', 'Demo'), audio('https://example.com/a.mp3')]);
    expect(dropped).toEqual(['<video> is not supported; dropped', '<audio> is not supported; dropped']);
    // A hostile <a data-file> is not a file block (nor a link: its scheme is not allowed).
    expect(JSON.stringify(htmlToDocument('<a data-file href="javascript:alert(1)" download="x">x</a>').doc)).not.toMatch(/fileAttachment|javascript/);
  });

  it('search text is the file name and the titles', () => {
    expect(documentToText(doc)).toBe('Minutes and the recording:\nnotes [draft] \\ v2.txt\na.zip\nKick-off talk');
  });
});

describe('file, video and audio on a public share', () => {
  const inside = (id: string) => `/api/v1/attachments/${id}/download`;
  const scope = {
    hasPage: () => false,
    hasAttachment: (id: string) => id === 'in-share',
    pageUrl: (id: string) => `/s/tok/${id}`,
    attachmentUrl: (id: string) => `/api/v1/public/shares/tok/attachments/${id}`,
  };
  const doc = validateDocument(
    docOf(
      file(inside('in-share'), 'plan.pdf', 10, 'application/pdf'),
      video(inside('in-share'), 'Demo'),
      file(inside('elsewhere'), 'secret.txt'),
      audio(inside('elsewhere'), 'Call'),
    ),
  );

  it('serves files of the share at their public address; a file from outside leaves only its name', () => {
    expect(attachmentIdsIn(doc).sort()).toEqual(['elsewhere', 'in-share']);
    const shared = publicContent(doc, scope);
    const publicUrl = '/api/v1/public/shares/tok/attachments/in-share';
    expect(shared.content).toEqual([file(publicUrl, 'plan.pdf', 10, 'application/pdf'), video(publicUrl, 'Demo'), p(text('secret.txt')), p(text('Call'))]);
    // Still a valid document: the share view shows it with the same blocks.
    expect(validateDocument(shared)).toEqual(shared);
    const { html } = readerContent(shared);
    expect(html).toContain(`href="${publicUrl}"`);
    expect(html).toContain(`<p><a href="${publicUrl}">Demo</a></p>`);
    expect(html).not.toMatch(/<video|<audio|elsewhere/);
  });
});

describe('over HTTP', () => {
  let t: TestApp;
  let small: TestApp;
  let editor: TestUser;
  let ws: string;
  let space: string;

  let client: Client;

  beforeAll(async () => {
    const handbook = await listeningHandbook();
    t = handbook.t;
    editor = handbook.ws.editor;
    ws = handbook.ws.workspace.id;
    space = handbook.spaceId;
    client = await connectMcp(handbook.base, editor.token);
    small = await createTestApp({ MAX_ATTACHMENT_BYTES: 16 });
  });
  afterAll(async () => {
    await client?.close();
    await t.close();
    await small.close();
  });

  const put = (id: string, body: Record<string, unknown>) => t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: editor.token, body });
  const markdownOf = async (id: string) =>
    (await t.request({ url: `/api/v1/pages/${id}`, token: editor.token, query: { format: 'markdown' } })).body.data.markdown as string;

  it('stores an uploaded file as a block, answers it as Markdown, and takes Markdown back', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Minutes' });
    const up = await postMultipart(t.app, editor.token, '/api/v1/attachments', [
      ['pageId', page.id],
      ['workspaceId', ws],
      ['file', { bytes: Buffer.from('hello, file\n'), filename: 'minutes.txt', type: 'text/plain' }],
    ]);
    expect(up.statusCode).toBe(201);
    const attachment = JSON.parse(up.body).data;
    const url = `/api/v1/attachments/${attachment.id}/download`;
    const content = docOf(file(url, attachment.filename, attachment.size, attachment.contentType), audio(url, 'Voice memo'));
    const saved = await put(page.id, { content });
    expect(saved.status).toBe(200);
    const md = await markdownOf(page.id);
    expect(md).toBe(`::file[minutes.txt](${url}){size=12 type="text/plain"}\n\n::audio[Voice memo](${url})\n`);

    const copy = await newPage(t, editor, ws, space, { title: 'Copy', markdown: md });
    const read = await t.request({ url: `/api/v1/pages/${copy.id}`, token: editor.token });
    expect(read.body.data.content).toEqual(content);
    const download = await t.request({ url, token: editor.token });
    expect(download.status).toBe(200);
  });

  it('refuses hostile values with 422, naming the problem, and stores nothing', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Guarded', markdown: 'Before' });
    const hostile = [
      file('javascript:alert(1)', 'x'),
      video('data:text/html,<script>alert(1)</script>'),
      audio('data:text/html;base64,PHNjcmlwdD4='),
      file(ATTACHMENT, 'n'.repeat(10_000)),
      file(ATTACHMENT, 'x', 1, `${'a'.repeat(80)}/${'b'.repeat(80)}`),
      { type: 'video', attrs: { src: 'https://example.com/v.mp4', title: { toString: 'x' } } },
    ];
    for (const node of hostile) {
      for (const res of [
        await put(page.id, { content: docOf(node) }),
        await t.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: editor.token,
          body: { workspaceId: ws, spaceId: space, title: 'x', content: docOf(node) },
        }),
      ]) {
        expect(res.status, JSON.stringify(node).slice(0, 80)).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message).toMatch(/^Invalid document at content\[0\]: /);
      }
    }
    expect(await markdownOf(page.id)).toBe('Before\n');
    // In Markdown a hostile address is no block: the line stays text, and no javascript: link is made.
    const res = await put(page.id, { markdown: '::file[x](javascript:alert(1))' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body.data.content ?? (await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token })).body.data.content)).not.toMatch(
      /fileAttachment|"href":"javascript/,
    );
  });

  it('MCP page_create and page_update take the Markdown forms; a hostile JSON block is a VALIDATION_ERROR', async () => {
    const md = `Recording:\n\n::video[Kick-off](https://cdn.example.com/kickoff.mp4)\n\n::file[slides.pdf](${ATTACHMENT}){size=5 type="application/pdf"}\n`;
    const created = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws, spaceId: space, title: 'Recording', markdown: md } });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const got = await client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(md);
    const updated = await client.callTool({
      name: 'page_update',
      arguments: { pageId: id, markdown: `${md}\n::audio[Call](https://cdn.example.com/call.mp3)\n` },
    });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    expect(await markdownOf(id)).toBe(`${md}\n::audio[Call](https://cdn.example.com/call.mp3)\n`);

    const bad = await client.callTool({
      name: 'page_create',
      arguments: { workspaceId: ws, spaceId: space, title: 'Bad', content: docOf(file('javascript:alert(1)', 'x')) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*not javascript:/);
  });

  it('a file past MAX_ATTACHMENT_BYTES is refused with 422 and the limit in details', async () => {
    const w = await workspaceWithRoles(small);
    const sp = (await createSpace(small, w.admin, w.workspace.id, { name: 'S' })).id;
    const page = await newPage(small, w.editor, w.workspace.id, sp, { title: 'Big' });
    const res = await postMultipart(small.app, w.editor.token, '/api/v1/attachments', [
      ['pageId', page.id],
      ['workspaceId', w.workspace.id],
      ['file', { bytes: Buffer.alloc(17), filename: 'big.bin', type: 'application/octet-stream' }],
    ]);
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data', reason: 'too_large', limit: 16 } });
  });
});
