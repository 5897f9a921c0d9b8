import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bold, callout, codeBlock, expectMarkdownRoundTrip, mathBlock, mathInline, p, text } from './blocks.js';
import {
  findPage,
  type ImportSuite,
  type ImportView,
  importIntoNewSpace,
  importSuite,
  makeZip,
  PNG,
  readAttachments,
  readPage,
  type TreeNode,
  titles,
  zipFolder,
} from './helpers.js';
import { readZipEntry } from './zip-read.js';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/obsidian');

const suite = importSuite();
let t: TestApp;
let ws: ImportSuite['ws'];

beforeAll(async () => {
  ({ t, ws } = suite);
});

const importInto = (spaceName: string, zip: Buffer, source?: string) => importIntoNewSpace(suite, spaceName, { bytes: zip, filename: 'vault.zip' }, source);

describe('imports: an Obsidian vault', () => {
  let space: { id: string; slug: string };
  let done: ImportView;
  let tree: TreeNode[];
  const url = (title: string, slug: string) => `/w/${ws.workspace.hostname}/s/${space.slug}/p/${slug}-${findPage(tree, title).id}`;

  beforeAll(async () => {
    ({ space, done, tree } = await importInto('Vault', await zipFolder(FIXTURE), 'obsidian'));
  });

  it('makes folders parents, takes a folder note as its folder’s page, and leaves .obsidian and .trash out', () => {
    expect(done.detectedSource).toBe('obsidian');
    expect(titles(tree)).toEqual(['Archive', ['Old', ['Ideas']], 'Notes', ['Daily', 'Ideas', 'Meeting Notes'], 'Projects', ['Roadmap', 'Setup'], 'Welcome']);
    expect(done.result).toMatchObject({ pages: 11, attachments: 1 });
  });

  it('gives a folder note’s content to its folder page', async () => {
    const projects = await readPage(t, ws.editor, findPage(tree, 'Projects').id);
    expect(projects.markdown).toContain(`All projects, see [Roadmap](${url('Roadmap', 'roadmap')})`);
  });

  it('resolves wikilinks: by name anywhere (the shortest path winning), by path, to a heading, through aliases', async () => {
    const welcome = await readPage(t, ws.editor, findPage(tree, 'Welcome').id);
    const notesIdeas = findPage(tree, 'Notes').children.find((n) => n.title === 'Ideas')!;
    expect(welcome.markdown).toContain(`[plans](${url('Roadmap', 'roadmap')})`);
    expect(welcome.markdown).toContain(`[Meeting Notes > Actions](${url('Meeting Notes', 'meeting-notes')}#Actions)`);
    expect(welcome.markdown).toContain(`[Projects/Setup](${url('Setup', 'setup')})`);
    expect(welcome.markdown).toContain(`[Ideas](/w/${ws.workspace.hostname}/s/${space.slug}/p/ideas-${notesIdeas.id})`);
    expect(welcome.markdown).toContain(`[Journal](${url('Daily', 'daily')})`);
    expect(welcome.markdown).toContain(`[a Markdown link](${url('Setup', 'setup')})`);
    const roadmap = await readPage(t, ws.editor, findPage(tree, 'Roadmap').id);
    expect(roadmap.markdown).toContain(`Back to [Welcome](${url('Welcome', 'welcome')}); see also [the start](${url('Welcome', 'welcome')})`);
  });

  it('turns an embedded image into an attachment, and an embedded note into a link with a warning', async () => {
    // Setup comes first in the tree: the picture both show is one attachment, Setup's.
    const [image] = await readAttachments(t, ws.editor, ws.workspace.id, findPage(tree, 'Setup').id);
    expect(image).toMatchObject({ filename: 'diagram 1.png', contentType: 'image/png' });
    expect(image.bytes.equals(PNG)).toBe(true);
    const setup = await readPage(t, ws.editor, findPage(tree, 'Setup').id);
    expect(setup.markdown).toContain(`![diagram 1.png](/api/v1/attachments/${image.id}/download)`);
    // Obsidian's comments are never shown: not imported either.
    expect(setup.markdown).not.toMatch(/licence|private note|%%/);
    expect(setup.markdown).toContain('Done.');
    const welcome = await readPage(t, ws.editor, findPage(tree, 'Welcome').id);
    expect(welcome.markdown).toContain(`![diagram 1.png](/api/v1/attachments/${image.id}/download)`);
    expect(welcome.markdown).toContain(`[Daily](${url('Daily', 'daily')})`);
    expect(done.warnings).toEqual(
      expect.arrayContaining([
        { path: 'Welcome.md', message: 'the embedded note "Daily" became a link to it' },
        { path: 'Welcome.md', message: expect.stringContaining('Nowhere%20to%20be%20found points at nothing in the upload') },
      ]),
    );
    expect(done.warnings).toHaveLength(2);
  });

  it('drops the front matter but keeps its tags, makes a callout a callout with a bold title, and leaves code alone', async () => {
    const welcome = await readPage(t, ws.editor, findPage(tree, 'Welcome').id);
    expect(welcome.markdown.startsWith('Tags: #start #team/onboarding\n\n# Welcome')).toBe(true);
    expect(welcome.markdown).not.toContain('cssclasses');
    expect(welcome.content.content).toContainEqual(callout('success', null, p(bold('Keep it short')), p(text('One idea per note.'))));
    expect(welcome.markdown).toContain('`[[Not a link]]`');
    expect(welcome.markdown).toContain('```md\n[[Also not a link]]\n```');
  });

  it('is recognised by auto from its .obsidian folder', async () => {
    const auto = await importInto('Vault (auto)', await zipFolder(FIXTURE));
    expect(auto.done.detectedSource).toBe('obsidian');
    expect(titles(auto.tree)).toEqual(titles(tree));
  });
});

describe('imports: Obsidian links in detail', () => {
  it('reads links in tables, block references, same-note headings and links to files', async () => {
    const zip = await makeZip({
      '.obsidian/app.json': '{}',
      'A.md': '| link |\n| --- |\n| [[B\\|bee]] |\n\nSee [[B#^abc123]], [[#Later]], [[Sub]] and ![[files/report.pdf]].\n\n## Later\n',
      'B.md': 'Bee.',
      'Sub/C.md': 'Sea.',
      'files/report.pdf': Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    const { space, done, tree } = await importInto('Details', zip);
    const b = `/w/${ws.workspace.hostname}/s/${space.slug}/p/b-${findPage(tree, 'B').id}`;
    const a = await readPage(t, ws.editor, findPage(tree, 'A').id);
    expect(a.markdown).toContain(`| [bee](${b}) |`);
    expect(a.markdown).toContain(`[B > ^abc123](${b})`);
    expect(a.markdown).toContain('[Later](#Later)');
    // A folder without a note of its own is a page too.
    expect(a.markdown).toContain(`[Sub](/w/${ws.workspace.hostname}/s/${space.slug}/p/sub-${findPage(tree, 'Sub').id})`);
    const [pdf] = await readAttachments(t, ws.editor, ws.workspace.id, findPage(tree, 'A').id);
    expect(pdf).toMatchObject({ filename: 'report.pdf', contentType: 'application/pdf' });
    expect(a.markdown).toContain(`[files/report.pdf](/api/v1/attachments/${pdf.id}/download)`);
    expect(done.warnings).toEqual([{ path: 'A.md', message: 'the embedded file "files/report.pdf" became a link to it' }]);
  });
});

describe('imports: Obsidian callouts, math and diagrams', () => {
  it('makes callouts (foldable, nested, custom types) callouts with their title in bold, and passes math and Mermaid through', async () => {
    const note = [
      '> [!note] Keep it short',
      '> One idea per note, see [[B]].',
      '',
      '> [!WARNING]- Folded by default',
      '> Mind the gap.',
      '',
      '> [!tip]+',
      '> Open by default, no title.',
      '',
      '> [!faq] Custom types are info',
      '',
      '> [!quote] Outer',
      '> > [!error] Inner',
      '> > Nested.',
      '',
      '> A plain quote.',
      '',
      'Area $\\pi r^2$, priced at $5.',
      '',
      '$$',
      '\\int_0^1 x\\,dx',
      '$$',
      '',
      '```mermaid',
      'graph TD',
      '  A --> B',
      '```',
    ].join('\n');
    const { space, done, tree } = await importInto('Callouts', await makeZip({ '.obsidian/app.json': '{}', 'A.md': note, 'B.md': 'Bee.' }));
    expect(done.warnings).toEqual([]);
    const page = await readPage(t, ws.editor, findPage(tree, 'A').id);
    const b = `/w/${ws.workspace.hostname}/s/${space.slug}/p/b-${findPage(tree, 'B').id}`;
    const link = { type: 'link', attrs: { href: b, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null } };
    expect(page.content).toEqual({
      type: 'doc',
      content: [
        callout('note', null, p(bold('Keep it short')), p(text('One idea per note, see '), text('B', [link]), text('.'))),
        callout('warning', null, p(bold('Folded by default')), p(text('Mind the gap.'))),
        callout('success', null, p(text('Open by default, no title.'))),
        callout('info', null, p(bold('Custom types are info'))),
        callout('note', null, p(bold('Outer')), callout('danger', null, p(bold('Inner')), p(text('Nested.')))),
        { type: 'blockquote', content: [p(text('A plain quote.'))] },
        p(text('Area '), mathInline('\\pi r^2'), text(', priced at $5.')),
        mathBlock('\\int_0^1 x\\,dx'),
        codeBlock('mermaid', 'graph TD\n  A --> B'),
      ],
    });
    expectMarkdownRoundTrip(page);
  });
});

describe('imports: telling a vault from plain Markdown', () => {
  it('takes Markdown with wikilinks for a vault even without its .obsidian folder, and wikilinks only in code for plain Markdown', async () => {
    const vault = await importInto('Wikilinks', await makeZip({ 'A.md': 'See [[B]].', 'B.md': 'Bee.' }));
    expect(vault.done.detectedSource).toBe('obsidian');
    const b = vault.tree.find((n) => n.title === 'B')!;
    expect((await readPage(t, ws.editor, vault.tree[0].id)).markdown).toContain(`-${b.id})`);
    const plain = await importInto('Plain', await makeZip({ 'A.md': 'Write `[[B]]` for a link.', 'B.md': '```\n[[A]]\n```' }));
    expect(plain.done.detectedSource).toBe('markdown');
  });
});

describe('imports: Obsidian comments and code', () => {
  it('drops %%comments%% but never a %% inside a code span or a fenced or indented code block', async () => {
    const note = [
      'A link may not hold `# | ^ : %% [[ ]]`, so keep names plain.',
      '',
      'Write ``%%`` around a comment. %%a real comment, hidden%% Still here.',
      '',
      '```md',
      'This is an %%inline%% comment.',
      '%%',
      '```',
      '',
      '    indented %% code [[Not a link]]',
      '',
      '- a list item with `%%` in code',
      '',
      '%%',
      'A block comment over a `code span` and',
      '',
      '```',
      'a fenced block',
      '```',
      '%%',
      'The last words.',
    ].join('\n');
    const { tree } = await importInto('Comments', await makeZip({ '.obsidian/app.json': '{}', 'Links.md': note }));
    const page = await readPage(t, ws.editor, findPage(tree, 'Links').id);
    expect(page.markdown).toContain('A link may not hold `# | ^ : %% [[ ]]`, so keep names plain.');
    expect(page.markdown).toContain('Write `%%` around a comment.  Still here.');
    expect(page.markdown).toContain('```md\nThis is an %%inline%% comment.\n%%\n```');
    expect(page.markdown).toContain('```\nindented %% code [[Not a link]]\n```');
    expect(page.markdown).toContain('- a list item with `%%` in code');
    expect(page.markdown).toContain('The last words.');
    expect(page.markdown).not.toMatch(/a real comment|block comment|a fenced block/);
  });

  // The Obsidian help vault (see docs/imports.md): its "Internal links" page names `%%` in code near its top.
  const vault = path.join(process.env.REAL_EXPORTS_DIR ?? path.join(import.meta.dirname, '../../.tmp/real-exports'), 'obsidian-help-en.zip');
  it.skipIf(!existsSync(vault))('keeps the words of the real help vault’s "Internal links" page', async () => {
    const text = (await readZipEntry(vault, 'Linking notes and files/Internal links.md')).toString('utf8');
    const { tree } = await importInto('Help', await makeZip({ '.obsidian/app.json': '{}', 'Internal links.md': text }));
    const page = await readPage(t, ws.editor, findPage(tree, 'Internal links').id);
    const words = (s: string) => s.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    const last = text.trimEnd().split('\n').pop()!;
    expect(words(last)).toBeGreaterThan(3);
    // Its last paragraph, far below the `%%` in code, made it.
    expect(page.markdown).toContain(last.split(/[[`*]/)[0].trim());
    expect(words(page.markdown)).toBeGreaterThan(0.8 * words(text));
  });
});
