import { describe, expect, it } from 'vitest';
import { htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, schema, validateDocument } from '../../src/editor/index.js';
import { AppError } from '../../src/errors.js';
import { docOf, p, text } from './helpers.js';

function problem(json: unknown): { path: string; reason: string } {
  try {
    validateDocument(json);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details.field).toBe('content');
    return { path: e.details.path as string, reason: e.details.reason as string };
  }
  throw new Error('expected the document to be refused');
}

describe('schema', () => {
  it('is built from the Tiptap extensions without a DOM and holds the whole rich-text set', () => {
    expect(Object.keys(schema.nodes).sort()).toEqual(
      [
        'blockquote',
        'bulletList',
        'callout',
        'codeBlock',
        'column',
        'columns',
        'date',
        'details',
        'detailsContent',
        'detailsSummary',
        'doc',
        'embed',
        'fileAttachment',
        'footnote',
        'hardBreak',
        'heading',
        'horizontalRule',
        'image',
        'inlineImage',
        'linkCard',
        'listItem',
        'mathBlock',
        'mathInline',
        'mention',
        'orderedList',
        'paragraph',
        'subpages',
        'table',
        'tableCell',
        'tableHeader',
        'tableOfContents',
        'tableRow',
        'taskItem',
        'taskList',
        'text',
        'video',
        'audio',
      ].sort(),
    );
    expect(Object.keys(schema.marks).sort()).toEqual(['backgroundColor', 'bold', 'code', 'highlight', 'italic', 'link', 'strike', 'textColor']);
  });
});

describe('validateDocument', () => {
  it('accepts a valid document and normalises it (defaults filled, same-mark text joined)', () => {
    const out = validateDocument(docOf({ type: 'heading', attrs: { level: 2 }, content: [text('a'), text('b')] }, { type: 'codeBlock', content: [text('x')] }));
    expect(out).toEqual(
      docOf({ type: 'heading', attrs: { level: 2 }, content: [text('ab')] }, { type: 'codeBlock', attrs: { language: null }, content: [text('x')] }),
    );
  });

  it('names the path of an unknown node type', () => {
    expect(problem(docOf(p(text('ok')), { type: 'bulletList', content: [{ type: 'listItem', content: [p(), { type: 'blink' }] }] }))).toEqual({
      path: 'content[1].content[0].content[1]',
      reason: 'unknown node type "blink"',
    });
  });

  it('refuses bad attributes: out of range, wrong type, unknown, unsafe URLs', () => {
    expect(problem(docOf({ type: 'heading', attrs: { level: 0 } })).path).toBe('content[0]');
    expect(problem(docOf({ type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: 'yes' }, content: [p()] }] })).path).toBe('content[0].content[0]');
    expect(problem(docOf({ type: 'codeBlock', attrs: { language: 'java script' } })).reason).toMatch(/language/);
    expect(problem(docOf(p(), { type: 'image', attrs: { src: 'javascript:alert(1)' } }))).toEqual({
      path: 'content[1]',
      reason: 'uses a URL scheme that is not allowed',
    });
    expect(problem(docOf({ type: 'image', attrs: { alt: 'no src' } })).reason).toMatch(/src/);
    expect(problem(docOf(p(text('x', [{ type: 'link', attrs: { href: 'https://ok', onclick: 'x' } }])))).path).toBe('content[0].content[0].marks[0]');
    expect(problem(docOf(p({ type: 'mention', attrs: { id: '' } }))).path).toBe('content[0].content[0]');
    expect(
      problem(docOf({ type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableCell', attrs: { colspan: 0 }, content: [p()] }] }] })).path,
    ).toBe('content[0].content[0].content[0]');
  });

  it('refuses marks where the parent does not allow them, and unknown marks', () => {
    expect(problem(docOf({ type: 'codeBlock', content: [text('a'), text('b', [{ type: 'italic' }])] }))).toEqual({
      path: 'content[0].content[1]',
      reason: 'mark italic is not allowed inside codeBlock',
    });
    expect(problem(docOf(p(text('a', [{ type: 'underline' }])))).path).toBe('content[0].content[0].marks[0]');
  });

  it('refuses misplaced and missing content, bad shapes and a wrong root', () => {
    expect(problem(docOf(p({ type: 'paragraph' })))).toEqual({ path: 'content[0].content[0]', reason: 'paragraph is not allowed here inside paragraph' });
    expect(problem(docOf({ type: 'bulletList', content: [] })).path).toBe('content[0]');
    expect(problem(docOf({ type: 'listItem', content: [p()] })).path).toBe('content[0]');
    expect(problem(docOf()).path).toBe('');
    expect(problem(p()).reason).toMatch(/root node must be of type "doc"/);
    expect(problem(docOf(p({ type: 'text', text: '' }))).path).toBe('content[0].content[0]');
    expect(problem(docOf(p(), 'string' as unknown as object)).path).toBe('content[1]');
    expect(problem({ type: 'doc', content: {} }).reason).toBe('content must be an array');
    expect(problem(docOf(p(text('a')), { type: 'paragraph', extra: 1 })).path).toBe('content[1]');
    let deep: object = p(text('deep'));
    for (let i = 0; i < 100; i++) deep = { type: 'blockquote', content: [deep] };
    expect(problem(docOf(deep)).reason).toMatch(/nested deeper/);
  });
});

describe('documentToText', () => {
  it('joins blocks with newlines and reads leaves sensibly', () => {
    const json = docOf(
      { type: 'heading', attrs: { level: 1 }, content: [text('Title')] },
      p(text('Hi '), { type: 'mention', attrs: { id: 'u1', label: 'Ann' } }, text('!'), { type: 'hardBreak' }, text('next', [{ type: 'bold' }])),
      {
        type: 'bulletList',
        content: [
          { type: 'listItem', content: [p(text('one'))] },
          { type: 'listItem', content: [p(text('two'))] },
        ],
      },
      { type: 'image', attrs: { src: 'https://x/y.png', alt: 'diagram' } },
    );
    expect(documentToText(json)).toBe('Title\nHi @Ann!\nnext\none\ntwo\ndiagram');
  });
});

describe('Markdown', () => {
  const roundTrips = {
    'headings and marks': '# One\n\n###### Six\n\nSome **bold**, *italic*, ~~strike~~, `code` and [link](https://example.com "Title").\n',
    lists: '- a\n- b\n  - nested\n\n1. one\n2. two\n\n\n3) three\n4) four\n',
    'ordered list start': '7. seven\n8. eight\n',
    'task lists': '- [ ] todo\n- [x] done\n  - [ ] nested task\n',
    'adjacent lists stay apart': '- plain\n\n* [ ] task\n',
    'code blocks with language': '```ts\nconst a = 1;\n```\n\n```\nno language\n```\n\n````md\n```\ninner fence\n```\n````\n',
    'blockquote and rule': '> quoted\n>\n> > deeper\n\n---\n\nafter\n',
    'hard break': 'line one\\\nline two\n',
    images: '![alt text](https://example.com/a.png "Caption")\n\n![](local/b.png)\n',
    'images in a line of text': 'Select **Settings** ![cog](icons/cog.png) → General, or [the ![](i.png) icon](https://x).\n\n## Status ![ok](ok.png)\n',
    mentions: 'Ping [@Ann Lee](mention:user-1) and [@Bob](mention:u%2F2).\n',
    tables: '| Name | Qty | Note |\n| :-- | --: | :-: |\n| apple | 3 | `x \\| y` |\n| pear | 10 | **ripe** |\n',
    'list items whose first paragraph is empty':
      '- \\\n\n  ![icon](https://x/i.png)\n\n  **Sort** files\n- \n  - nested\n\n1. \\\n\n   second paragraph\n2. b\n',
    highlight: 'Some ==highlighted== text, **==bold and highlighted==**, *==both==* and [==a link==](https://x).\n',
    'equals signs that are not a highlight': 'a \\== b, x \\==y and 1 = 1 and \\==\n',
    escapes: '\\# not a heading\n\n1\\. not a list\n\n\\[x\\] not a task\n\n\\*not emphasis\\*\n',
  };

  for (const [name, md] of Object.entries(roundTrips)) {
    it(`round-trips ${name}`, () => {
      const json = markdownToDocument(md);
      expect(validateDocument(json)).toEqual(json);
      expect(documentToMarkdown(json)).toBe(md);
      expect(markdownToDocument(documentToMarkdown(json))).toEqual(json);
    });
  }

  it('reads ==text== as highlight, written back as ==text==, as HTML <mark>, with the text unchanged for search', () => {
    const json = markdownToDocument('Pay ==by Friday== please; a == b stays text.\n') as { content: any[] };
    expect(json.content[0]).toEqual(p(text('Pay '), text('by Friday', [{ type: 'highlight' }]), text(' please; a == b stays text.')));
    expect(documentToText(json)).toBe('Pay by Friday please; a == b stays text.');
    expect(documentToMarkdown(json)).toBe('Pay ==by Friday== please; a \\== b stays text.\n');
    // HTML in (an import or a paste) reads <mark>; the export writes it (the schema's DOM form).
    expect(htmlToDocument('<p>a <mark>marked</mark> word</p>').doc.content).toEqual([p(text('a '), text('marked', [{ type: 'highlight' }]), text(' word'))]);
    expect(schema.marks.highlight.spec.toDOM?.(schema.marks.highlight.create(), true)).toEqual(['mark', {}, 0]);
    // Validation: the mark takes no attributes and is not allowed in code.
    expect(problem(docOf(p({ type: 'text', text: 'x', marks: [{ type: 'highlight', attrs: { color: 'red' } }] }))).reason).toMatch(/unknown attribute "color"/);
    expect(problem(docOf({ type: 'codeBlock', content: [text('x', [{ type: 'highlight' }])] })).reason).toMatch(/highlight/);
  });

  it('reads each construct into the right nodes', () => {
    const json = markdownToDocument('- [x] done\n\n[@Ann](mention:u1)\n\n```py\nx\n```\n\n| h |\n| :-: |\n| c |\n\n![a](https://x/i.png)\n\n~~s~~\n') as {
      content: any[];
    };
    const [tasks, mention, code, table, image, strike] = json.content;
    expect(tasks).toEqual({ type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [p(text('done'))] }] });
    expect(mention.content[0]).toEqual({ type: 'mention', attrs: { id: 'u1', label: 'Ann', mentionSuggestionChar: '@' } });
    expect(code).toEqual({ type: 'codeBlock', attrs: { language: 'py' }, content: [text('x')] });
    expect(table.content[0].content[0]).toMatchObject({ type: 'tableHeader', attrs: { align: 'center' }, content: [p(text('h'))] });
    expect(table.content[1].content[0]).toMatchObject({ type: 'tableCell', content: [p(text('c'))] });
    expect(image).toEqual({ type: 'image', attrs: { src: 'https://x/i.png', alt: 'a', title: null, width: null, height: null, align: null, caption: null } });
    expect(strike.content[0]).toEqual(text('s', [{ type: 'strike' }]));
  });

  it('keeps an image inside a line of text in that line, and makes an image without text around it a block', () => {
    const json = markdownToDocument('before ![pic](https://x/p.png) after\n\n# Head ![h](https://x/h.png)\n\n![alone](a.png) ![too](b.png)\n') as {
      content: any[];
    };
    const inline = (src: string, alt: string) => ({ type: 'inlineImage', attrs: { src, alt, title: null, width: null, height: null } });
    expect(json.content.map((n) => n.type)).toEqual(['paragraph', 'heading', 'image', 'image']);
    expect(json.content[0]).toEqual(p(text('before '), inline('https://x/p.png', 'pic'), text(' after')));
    expect(json.content[1].content).toEqual([text('Head '), inline('https://x/h.png', 'h')]);
    expect(documentToText(json)).toBe('before pic after\nHead h\nalone\ntoo');
  });

  it('reads an <img> in a line of text as an inline image, one on a line of its own as a block', () => {
    const { doc } = htmlToDocument(
      '<p>Click <img src="cog.png" alt="cog"> then go.</p><table><tr><td><span class="user"><img src="u.png">Mike</span></td></tr></table>' +
        '<figure><a href="x.gif"><img src="x.gif"></a><figcaption>Cap</figcaption></figure><div>Text<div><img src="z.png"></div></div>',
    );
    const types = JSON.stringify(doc).match(/"type":"(inlineImage|image)"/g);
    expect(types).toEqual(['"type":"inlineImage"', '"type":"inlineImage"', '"type":"image"', '"type":"image"']);
    expect(documentToMarkdown(doc)).toContain('Click ![cog](cog.png) then go.');
    expect(documentToMarkdown(doc)).toContain('| ![](u.png)Mike |');
  });

  it('keeps unsafe links and raw HTML as text', () => {
    const json = markdownToDocument('[x](javascript:alert(1)) <b>bold?</b>\n');
    expect(documentToText(json)).toBe('[x](javascript:alert(1)) <b>bold?</b>');
    expect(JSON.stringify(json)).not.toContain('"link"');
  });

  it('writes a document built as JSON (not from Markdown) as Markdown', () => {
    const json = docOf(
      { type: 'heading', attrs: { level: 2 }, content: [text('Plan')] },
      { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: false }, content: [p(text('write tests'))] }] },
      {
        type: 'table',
        content: [
          {
            type: 'tableRow',
            content: [
              { type: 'tableHeader', content: [p(text('a'))] },
              { type: 'tableHeader', content: [p(text('b'))] },
            ],
          },
          {
            type: 'tableRow',
            content: [
              { type: 'tableCell', content: [p(text('1')), p(text('2'))] },
              { type: 'tableCell', content: [p()] },
            ],
          },
        ],
      },
    );
    expect(documentToMarkdown(json)).toBe('## Plan\n\n- [ ] write tests\n\n| a | b |\n| --- | --- |\n| 1 2 |   |\n');
    expect(documentToMarkdown(docOf(p()))).toBe('');
    expect(markdownToDocument('')).toEqual(docOf({ type: 'paragraph' }));
  });
});
