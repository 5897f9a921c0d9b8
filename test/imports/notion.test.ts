import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createSpace } from '../spaces/helpers.js';
import { bold, bullets, callout, codeBlock, expectMarkdownRoundTrip, mathBlock, mathInline, p, text, toggle } from './blocks.js';
import {
  type ImportSuite,
  importIntoNewSpace,
  importSuite,
  makeZip,
  postImport,
  readAttachments,
  readPage,
  readTree,
  type TreeNode,
  titles,
  waitForImport,
  zipFolder,
} from './helpers.js';

/** Notion's two exports of a small workspace, built by hand to Notion's layout: see fixtures/notion/README.md. */
const FIXTURES = path.join(import.meta.dirname, 'fixtures/notion');
const MD = path.join(FIXTURES, 'markdown');
const HTML = path.join(FIXTURES, 'html');
const WIKI = 'Engineering Wiki 1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6';
const ROADMAP = `${WIKI}/Roadmap 3f2a9c1e0b4d4f7a8e6c5b4a3d2e1f00`;
const HOME = 'Team Home 11112222333344445555666677778888';

const suite = importSuite();
let t: TestApp;
let ws: ImportSuite['ws'];

beforeAll(async () => {
  ({ t, ws } = suite);
});

const importInto = (spaceName: string, zip: Buffer, source: string) => importIntoNewSpace(suite, spaceName, { bytes: zip, filename: 'Export.zip' }, source);

/** The node of `tree` at the end of the titled path. */
function at(tree: TreeNode[], ...path: string[]): TreeNode {
  let nodes = tree;
  let node: TreeNode | undefined;
  for (const title of path) {
    node = nodes.find((n) => n.title === title);
    expect(node, `no page ${path.join(' / ')}`).toBeDefined();
    nodes = node!.children;
  }
  return node!;
}

type Json = { type: string; text?: string; content?: Json[]; marks?: { type: string; attrs?: { href?: string } }[]; attrs?: Record<string, unknown> };

function textOf(node: Json): string {
  return node.text ?? (node.content ?? []).map(textOf).join('');
}

/** A page's first table, as the text of each cell, row by row. */
function tableOf(doc: Json): { cells: string[][]; hrefs: (string | undefined)[] } {
  const table = doc.content?.find((n) => n.type === 'table');
  expect(table, 'a table').toBeDefined();
  const rows = table!.content ?? [];
  const firstLink = (cell: Json) => cell.content?.[0]?.content?.[0]?.marks?.find((m) => m.type === 'link')?.attrs?.href;
  return { cells: rows.map((r) => (r.content ?? []).map(textOf)), hrefs: rows.map((r) => firstLink((r.content ?? [])[0])) };
}

describe('imports: Notion "Markdown & CSV" export', () => {
  let zip: Buffer;
  beforeAll(async () => {
    zip = await zipFolder(MD);
  });

  it('rebuilds the tree with titles from the files, children in the order their parent links them', async () => {
    const { done, tree, space } = await importInto('Notion Markdown', zip, 'notion');
    expect(done.detectedSource).toBe('notion');
    expect(done.result).toMatchObject({ pages: 12, attachments: 1 });
    // Linked children in link order (Roadmap, Onboarding, Café Notes), then the unlinked one (Archive); the database
    // before Q1 Plans because Roadmap links it first; rows in the CSV's order; the two roots alphabetically.
    expect(titles(tree)).toEqual([
      'Engineering Wiki',
      ['Roadmap', ['Tasks', ['Write spec', 'Review design', 'Ship it'], 'Q1 Plans', ['Hiring']], 'Onboarding', 'Café Notes', 'Archive'],
      'Meeting Notes',
    ]);
    expect(done.result?.rootPageIds).toEqual(tree.map((n) => n.id));
    // Everything was carried over (the callout too).
    expect(done.warnings).toEqual([]);

    const base = `/w/${ws.workspace.hostname}/s/${space.slug}/p/`;
    const link = (label: string, node: TreeNode, fragment = '') => new RegExp(`\\[${label}\\]\\(${base}[^)]*-${node.id}${fragment}\\)`);
    const wiki = at(tree, 'Engineering Wiki');
    const roadmap = at(tree, 'Engineering Wiki', 'Roadmap');
    const cafe = at(tree, 'Engineering Wiki', 'Café Notes');

    const wikiPage = await readPage(t, ws.editor, wiki.id);
    expect(wikiPage.title).toBe('Engineering Wiki');
    expect(wikiPage.markdown).not.toContain('# Engineering Wiki'); // the heading became the title
    expect(wikiPage.markdown).toMatch(link('Café Notes', cafe));

    // Across folders, URL-encoded, non-ASCII, with a fragment; a Notion address of an imported page; external links stay.
    const meeting = await readPage(t, ws.editor, at(tree, 'Meeting Notes').id);
    expect(meeting.markdown).toMatch(link('Café Notes', cafe));
    expect(meeting.markdown).toContain('[reference](https://example.com/docs)');
    const q1 = await readPage(t, ws.editor, at(tree, 'Engineering Wiki', 'Roadmap', 'Q1 Plans').id);
    expect(q1.markdown).toMatch(link('kickoff meeting', at(tree, 'Meeting Notes'), '#decisions'));
    const cafePage = await readPage(t, ws.editor, cafe.id);
    expect(cafePage.markdown).toMatch(link('Roadmap', roadmap));
    expect(cafePage.markdown).toMatch(link('Onboarding on Notion', at(tree, 'Engineering Wiki', 'Onboarding')));

    // The image is an attachment of its page, byte for byte; the callout a callout; the database link its page.
    const roadmapPage = await readPage(t, ws.editor, roadmap.id);
    const [image] = await readAttachments(t, ws.editor, ws.workspace.id, roadmap.id);
    expect(image).toMatchObject({ filename: 'architecture.png', contentType: 'image/png' });
    expect(image.bytes.equals(await readFile(path.join(MD, ROADMAP, 'architecture.png')))).toBe(true);
    expect(roadmapPage.markdown).toContain(`![architecture.png](/api/v1/attachments/${image.id}/download)`);
    expect(roadmapPage.content.content[0]).toEqual(callout('info', '💡', p(text('Plans change; this page is the source of truth.'))));
    expect(roadmapPage.markdown).not.toContain('<aside>');
    expect(roadmapPage.markdown).toMatch(link('Tasks', at(tree, 'Engineering Wiki', 'Roadmap', 'Tasks')));
  });

  it('makes a database a page holding its table (from _all.csv), its rows child pages with their properties as text', async () => {
    const { tree } = await importInto('Notion database', zip, 'notion');
    const tasks = at(tree, 'Engineering Wiki', 'Roadmap', 'Tasks');
    const page = await readPage(t, ws.editor, tasks.id);
    const { cells, hrefs } = tableOf(page.content as Json);
    // `Tasks … .csv` (a filtered view) has two rows; `_all.csv` all three, and is the one read.
    expect(cells).toEqual([
      ['Name', 'Status', 'Assignee', 'Due'],
      ['Write spec', 'Done', 'Ada Lovelace', 'March 3, 2024'],
      ['Review design', 'In progress', 'Grace Hopper', 'March 10, 2024'],
      ['Ship it', 'Not started', 'Ada Lovelace, Grace Hopper', ''],
    ]);
    const rows = tasks.children;
    expect(hrefs.slice(1)).toEqual(rows.map((r) => expect.stringMatching(new RegExp(`^/w/.*-${r.id}$`))));

    const spec = await readPage(t, ws.editor, rows[0].id);
    expect(spec.markdown).toMatch(/^Status: Done\n\nAssignee: Ada Lovelace\n\nDue: March 3, 2024\n\nThe spec lives in the design doc\./);
  });

  it('is recognised by source auto', async () => {
    const { done, tree } = await importInto('Notion auto', zip, 'auto');
    expect(done.detectedSource).toBe('notion');
    expect(tree.map((n) => n.title)).toEqual(['Engineering Wiki', 'Meeting Notes']);
  });
});

describe('imports: Notion "HTML" export', () => {
  it('keeps the page body without its header, databases as tables, rows with their properties', async () => {
    const { done, tree, space } = await importInto('Notion HTML', await zipFolder(HTML), 'auto');
    expect(done.detectedSource).toBe('notion');
    expect(done.result).toMatchObject({ pages: 8, attachments: 1 });
    // Team Home links Projects, Guides, Über uns in that order; the database's table lists its rows' order.
    expect(titles(tree)).toEqual(['Team Home', ['Projects', ['Website', 'Mobile App', 'Docs Revamp'], 'Guides', ['Setup'], 'Über uns']]);
    expect(done.warnings).toEqual([{ path: `${HOME}.html`, message: '<iframe> is not supported; dropped' }]);

    const home = await readPage(t, ws.editor, tree[0].id);
    const blocks = (home.content as Json).content ?? [];
    // A gray callout: kb's gray one, `note`.
    expect(blocks[0]).toEqual(callout('note', '💡', p(text('Start here & say hello.'))));
    expect(home.markdown).not.toContain('Team Home'); // the header's title is the page's title, not content
    const tasks = blocks.filter((b) => b.type === 'taskList').flatMap((l) => l.content ?? []);
    expect(tasks.map((i) => [textOf(i), i.attrs?.checked])).toEqual([
      ['Set up the wiki', true],
      ['Invite everyone', false],
    ]);
    expect(blocks.find((b) => b.type === 'mathBlock')).toEqual(mathBlock('e^{i\\pi} + 1 = 0'));
    expect(blocks.find((b) => b.type === 'codeBlock')).toBeUndefined();

    const projects = at(tree, 'Team Home', 'Projects');
    const { cells, hrefs } = tableOf((await readPage(t, ws.editor, projects.id)).content as Json);
    expect(cells).toEqual([
      ['Name', 'Status', 'Owner', 'Shipped'],
      ['Website', 'Active', 'Ada Lovelace', '☐'],
      ['Mobile App', 'Planned', 'Grace Hopper', '☐'],
      ['Docs Revamp', 'Done', 'Ada Lovelace', '☑'],
    ]);
    expect(hrefs.slice(1)).toEqual(projects.children.map((r) => expect.stringMatching(new RegExp(`^/w/.*-${r.id}$`))));
    const website = await readPage(t, ws.editor, projects.children[0].id);
    expect(website.markdown).toMatch(/^Status: Active\n\nOwner: Ada Lovelace\n\nLaunch the new website\./);

    const guides = at(tree, 'Team Home', 'Guides');
    const [logo] = await readAttachments(t, ws.editor, ws.workspace.id, guides.id);
    expect(logo.bytes.equals(await readFile(path.join(HTML, HOME, 'Guides 6666777788889999aaaabbbbccccdddd', 'logo.png')))).toBe(true);
    expect((await readPage(t, ws.editor, guides.id)).markdown).toContain(`(/api/v1/attachments/${logo.id}/download "Our logo")`);

    const base = `/w/${ws.workspace.hostname}/s/${space.slug}/p/`;
    const setup = await readPage(t, ws.editor, at(tree, 'Team Home', 'Guides', 'Setup').id);
    expect(setup.markdown).toContain(`[Website](${base}website-${projects.children[0].id})`);
    expect(setup.markdown).toMatch(new RegExp(`\\[Über uns\\]\\(${base}[^)]*-${at(tree, 'Team Home', 'Über uns').id}\\)`));
  });
});

describe("imports: Notion's callouts, toggles, equations and diagrams", () => {
  const id = (n: number) => n.toString(16).padStart(32, 'b');
  const katex = (tex: string, display = false) =>
    `<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"${display ? ' display="block"' : ''}><semantics><mrow><mi>x</mi></mrow>` +
    `<annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">x</span></span>`;
  const style = `<style>@import url('https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/katex.min.css')</style>`;
  // Notion's own markup for each block, as its HTML export writes it.
  const html =
    `<html><head><title>Blocks</title></head><body><article class="page sans"><header><h1 class="page-title">Blocks</h1></header><div class="page-body">` +
    `<figure class="block-color-red_background callout" style="white-space:pre-wrap;display:flex" id="c1"><div style="font-size:1.5em"><span class="icon">⚠️</span></div>` +
    `<div style="width:100%">Never on <strong>Fridays</strong>.<p id="c1p">Really.</p></div></figure>` +
    `<figure class="block-color-teal callout" style="white-space:pre-wrap;display:flex" id="c2"><div style="font-size:1.5em"><img class="icon" src="https://www.notion.so/icons/check_green.svg"/></div>` +
    `<div style="width:100%">Shipped</div></figure>` +
    `<figure class="callout" style="white-space:pre-wrap;display:flex" id="c3"><div style="font-size:1.5em"></div><div style="width:100%">Plain</div></figure>` +
    `<ul id="t1" class="toggle"><li><details open=""><summary>Why <strong>toggles</strong>?</summary><p id="t1p">Because.</p>` +
    `<ul id="t1l" class="bulleted-list"><li style="list-style-type:disc">one</li></ul></details></li></ul>` +
    `<details open=""><summary style="font-weight:600;font-size:1.5em;line-height:1.3;margin:0"><h3 id="h">A toggle heading</h3></summary><div class="indented"><p id="hp">Under it.</p></div></details>` +
    `<p id="m1">Energy ${style}<span data-token-index="0" contenteditable="false" class="notion-text-equation-token" style="user-select:all"><span></span><span>${katex('E=mc^2')}</span></span> costs $5.</p>` +
    `<figure id="e1" class="equation">${style}<div class="equation-container"><span class="katex-display">${katex('\\sum_{i=1}^n i = \\frac{n(n+1)}{2}', true)}</span></div></figure>` +
    // Longer than a formula may be: kept as its TeX, in code.
    `<figure id="e2" class="equation"><div class="equation-container"><span class="katex-display">${katex('x'.repeat(10_001), true)}</span></div></figure>` +
    `<pre id="d1" class="code"><code class="language-Mermaid">graph TD\n  A --&gt; B</code></pre>` +
    `</div></article></body></html>`;
  // The same blocks as the "Markdown & CSV" export writes them.
  const markdown = [
    '# Blocks (Markdown)',
    '',
    '<aside>',
    '💡 Plans change; **this** page is the source of truth.',
    '',
    '- a list',
    '',
    '</aside>',
    '',
    '<aside>',
    '<img src="https://www.notion.so/icons/alert_orange.svg" alt="https://www.notion.so/icons/alert_orange.svg" width="40px" />',
    '',
    'Mind the gap.',
    '',
    '</aside>',
    '',
    '<details>',
    '<summary>Why toggles?</summary>',
    '',
    'Because.',
    '',
    '</details>',
    '',
    'Energy $E=mc^2$ costs $5.',
    '',
    '$$',
    '\\sum_{i=1}^n i',
    '$$',
    '',
    '```mermaid',
    'graph TD',
    '  A --> B',
    '```',
    '',
  ].join('\n');

  it('makes them callouts (icon and colour kept), toggles, math and a Mermaid code block, whose Markdown reads back the same', async () => {
    const zip = await makeZip({ [`Blocks ${id(1)}.html`]: html, [`Blocks Markdown ${id(2)}.md`]: markdown });
    const { done, tree } = await importInto('Notion blocks', zip, 'notion');
    expect(done.warnings).toEqual([
      { path: `Blocks ${id(1)}.html`, message: 'an equation longer than 10000 characters was kept as its TeX source, in code' },
      {
        path: `Blocks ${id(1)}.html`,
        message: "a callout's icon is a picture (https://www.notion.so/icons/check_green.svg); a callout's icon can only be an emoji, so it was not kept",
      },
      {
        path: `Blocks Markdown ${id(2)}.md`,
        message: "a callout's icon is a picture (https://www.notion.so/icons/alert_orange.svg); a callout's icon can only be an emoji, so it was not kept",
      },
    ]);

    const fromHtml = await readPage(t, ws.editor, at(tree, 'Blocks').id);
    expect(fromHtml.content).toEqual({
      type: 'doc',
      content: [
        callout('danger', '⚠️', p(text('Never on '), bold('Fridays'), text('.')), p(text('Really.'))),
        callout('success', null, p(text('Shipped'))),
        callout('info', null, p(text('Plain'))),
        toggle([text('Why '), bold('toggles'), text('?')], p(text('Because.')), bullets('one')),
        toggle([text('A toggle heading')], p(text('Under it.'))),
        p(text('Energy '), mathInline('E=mc^2'), text(' costs $5.')),
        mathBlock('\\sum_{i=1}^n i = \\frac{n(n+1)}{2}'),
        codeBlock(null, 'x'.repeat(10_001)),
        codeBlock('mermaid', 'graph TD\n  A --> B'),
      ],
    });
    expectMarkdownRoundTrip(fromHtml);

    const fromMarkdown = await readPage(t, ws.editor, at(tree, 'Blocks (Markdown)').id);
    expect(fromMarkdown.content).toEqual({
      type: 'doc',
      content: [
        callout('info', '💡', p(text('Plans change; '), bold('this'), text(' page is the source of truth.')), bullets('a list')),
        callout('info', null, p(text('Mind the gap.'))),
        toggle([text('Why toggles?')], p(text('Because.'))),
        p(text('Energy '), mathInline('E=mc^2'), text(' costs $5.')),
        mathBlock('\\sum_{i=1}^n i'),
        codeBlock('mermaid', 'graph TD\n  A --> B'),
      ],
    });
    expectMarkdownRoundTrip(fromMarkdown);
  });
});

describe('imports: Notion exports in less usual shapes', () => {
  const id = (n: number) => n.toString(16).padStart(32, 'a');

  it('reads titles from the heading, passes through a wrapping folder, makes a bare Notion folder a page, and falls back to the one CSV', async () => {
    const zip = await makeZip({
      // Notion drops `/` from file names; the heading keeps the real title.
      [`Export/Q1Q2 Plans ${id(1)}.md`]: `# Q1/Q2 Plans\n\nBoth quarters.\n`,
      [`Export/Q1Q2 Plans ${id(1)}/Notes ${id(2)}/Deep ${id(3)}.md`]: '# Deep\n\nA page whose parent folder has no file.\n',
      // An older export: the database's CSV without `_all`.
      [`Export/People ${id(4)}.csv`]: 'Name,Role\nZoe,Lead\nAdam,Engineer\n',
      [`Export/People ${id(4)}/Adam ${id(5)}.md`]: '# Adam\n\nRole: Engineer\n\nLikes tea.\n',
      [`Export/People ${id(4)}/Zoe ${id(6)}.md`]: '# Zoe\n\nRole: Lead\n',
    });
    const { done, tree } = await importInto('Notion shapes', zip, 'notion');
    expect(titles(tree)).toEqual(['People', ['Zoe', 'Adam'], 'Q1/Q2 Plans', ['Notes', ['Deep']]]);
    expect(done.warnings).toEqual([]);
    const notes = await readPage(t, ws.editor, at(tree, 'Q1/Q2 Plans', 'Notes').id);
    expect(notes.markdown.trim()).toBe('');
  });

  it('keeps a page’s emoji icon, and names a page whose icon is an image in a warning', async () => {
    const page = (title: string, icon: string) =>
      `<html><head><title>${title}</title></head><body><article class="page sans"><header><div class="page-header-icon undefined">${icon}</div>` +
      `<h1 class="page-title">${title}</h1></header><div class="page-body"><p>About ${title}.</p></div></article></body></html>`;
    const zip = await makeZip({
      [`Goals ${id(9)}.html`]: page('Goals', '<span class="icon">🎯</span>'),
      [`Logo ${id(10)}.html`]: page('Logo', '<img class="icon" src="https://example.com/logo.png"/>'),
      [`Plain ${id(11)}.html`]: page('Plain', ''),
    });
    const { done, tree } = await importInto('Notion icons', zip, 'notion');
    const goals = await readPage(t, ws.editor, at(tree, 'Goals').id);
    expect(goals.icon).toBe('🎯');
    expect(goals.markdown.trim()).toBe('About Goals.');
    expect((await readPage(t, ws.editor, at(tree, 'Logo').id)).icon).toBeNull();
    expect((await readPage(t, ws.editor, at(tree, 'Plain').id)).icon).toBeNull();
    expect(done.warnings).toEqual([
      {
        path: `Logo ${id(10)}.html`,
        message: 'the icon of the page "Logo" is an image (https://example.com/logo.png); a page\'s icon can only be an emoji, so it was not kept',
      },
    ]);
  });

  // Outline's test fixture of a real Notion HTML export (see docs/imports.md), when it is at hand.
  const real = path.join(process.env.REAL_EXPORTS_DIR ?? path.join(import.meta.dirname, '../../.tmp/real-exports'), 'notion-html.zip');
  it.skipIf(!existsSync(real))('keeps the emoji icons of a real Notion HTML export', async () => {
    const { tree } = await importInto('Notion real icons', await readFile(real), 'notion');
    expect((await readPage(t, ws.editor, at(tree, 'Get Started').id)).icon).toBe('😑');
    expect((await readPage(t, ws.editor, at(tree, 'Meeting Notes').id)).icon).toBe('✏️');
  });

  it('says so when the export is still split in parts (a zip inside the zip)', async () => {
    const inner = await makeZip({ [`Home ${id(7)}.md`]: '# Home\n' });
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Notion parts' });
    const zip = await makeZip({ 'Export-1234-Part-1.zip': inner, [`Readme ${id(8)}.md`]: '# Readme\n' });
    const res = await postImport(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id, source: 'notion' }, { bytes: zip, filename: 'Export.zip' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await waitForImport(t, ws.editor, res.body.data.id);
    expect(done.status).toBe('succeeded');
    expect(titles(await readTree(t, ws.editor, ws.workspace.id, space.id))).toEqual(['Readme']);
    expect(done.warnings).toEqual([{ path: 'Export-1234-Part-1.zip', message: expect.stringContaining('import each part on its own') }]);
  });
});
