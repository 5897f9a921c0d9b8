import { type Editor, Extension, type Range } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { Suggestion } from '@tiptap/suggestion';
import { inColumn, insertColumns } from './columns-view';
import { todayIso } from './date-view';
import { OPEN_FOOTNOTE_EVENT } from './footnote-view';
import { LIST_PLACEMENT, renderList, type SuggestionItem } from './SuggestionList';

/** The editor event that asks the menus (EmbedBox.tsx) for the embed box, where the person pastes the link. */
export const EMBED_BOX_EVENT = 'kbEmbedBox';

/** Asks for the embed box (the editor's own event bus, as the link box is asked for); `card` asks it for a link card. */
export function requestEmbedBox(editor: Editor, mode: 'embed' | 'card' = 'embed') {
  (editor as unknown as { emit(event: string, mode: string): void }).emit(EMBED_BOX_EVENT, mode);
}

/** The editor event the slash menu's "Template" sends (templates/TemplateInsert.tsx): pick a template to put in at the caret. */
export const TEMPLATE_INSERT_EVENT = 'kbTemplateInsert';

/** The editor event the slash menu's "Emoji" sends (emoji/EmojiMenu.tsx): the picker under the caret. */
export const EMOJI_PICKER_EVENT = 'kbEmojiPicker';

function requestTemplateInsert(editor: Editor) {
  (editor as unknown as { emit(event: string): void }).emit(TEMPLATE_INSERT_EVENT);
}

interface Block extends SuggestionItem {
  run(editor: Editor, range: Range): void;
  /** Offered only where this holds (everywhere when left out). */
  offered?: (editor: Editor) => boolean;
}

/** The blocks "/" offers, in the order people reach for them. `aliases` let "/h1" or "/ul" find them. */
function blocks(onPick: (editor: Editor, accept: string) => void): (Block & { aliases: string[] })[] {
  const chainAt = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);
  /** A block made from files the person picks (uploaded as attachments of the page). */
  const upload = (key: string, label: string, hint: string, accept: string, aliases: string[]) => ({
    key,
    label,
    hint,
    aliases,
    run: (e: Editor, r: Range) => {
      chainAt(e, r).run();
      onPick(e, accept);
    },
  });
  return [
    {
      key: 'h1',
      label: 'Heading 1',
      hint: 'Large section title',
      aliases: ['h1', 'title'],
      run: (e, r) => chainAt(e, r).setNode('heading', { level: 1 }).run(),
    },
    { key: 'h2', label: 'Heading 2', hint: 'Medium section title', aliases: ['h2'], run: (e, r) => chainAt(e, r).setNode('heading', { level: 2 }).run() },
    { key: 'h3', label: 'Heading 3', hint: 'Small section title', aliases: ['h3'], run: (e, r) => chainAt(e, r).setNode('heading', { level: 3 }).run() },
    { key: 'bullet', label: 'Bullet list', hint: 'A simple list', aliases: ['ul', 'unordered'], run: (e, r) => chainAt(e, r).toggleBulletList().run() },
    { key: 'ordered', label: 'Numbered list', hint: 'A list with numbers', aliases: ['ol', 'ordered'], run: (e, r) => chainAt(e, r).toggleOrderedList().run() },
    { key: 'task', label: 'Task list', hint: 'Items to check off', aliases: ['todo', 'checkbox'], run: (e, r) => chainAt(e, r).toggleTaskList().run() },
    { key: 'quote', label: 'Quote', hint: 'A quotation', aliases: ['blockquote'], run: (e, r) => chainAt(e, r).toggleBlockquote().run() },
    { key: 'code', label: 'Code block', hint: 'Code with highlighting', aliases: ['pre', 'snippet'], run: (e, r) => chainAt(e, r).setCodeBlock().run() },
    {
      key: 'table',
      label: 'Table',
      hint: 'Three by three, with a header row',
      aliases: ['grid'],
      run: (e, r) => chainAt(e, r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    upload('image', 'Image', 'Upload a picture', 'image/*', ['picture', 'photo']),
    upload('file', 'File', 'Upload a file to download', '', ['attachment', 'upload', 'pdf', 'document']),
    upload('video', 'Video', 'Upload a video, played in the page', 'video/*', ['movie', 'recording', 'mp4', 'webm']),
    upload('audio', 'Audio', 'Upload a sound or recording', 'audio/*', ['sound', 'music', 'recording', 'voice', 'mp3', 'wav']),
    {
      key: 'embed',
      label: 'Embed',
      hint: 'A video, design or document from another site',
      aliases: ['video', 'youtube', 'vimeo', 'loom', 'figma', 'google', 'docs', 'sheets', 'slides', 'miro', 'codepen', 'iframe'],
      run: (e, r) => {
        chainAt(e, r).run();
        requestEmbedBox(e);
      },
    },
    {
      key: 'link-card',
      label: 'Link card',
      hint: 'A link to any page, with its title and icon',
      aliases: ['bookmark', 'link', 'card', 'preview', 'url', 'web'],
      run: (e, r) => {
        chainAt(e, r).run();
        requestEmbedBox(e, 'card');
      },
    },
    {
      key: 'subpages',
      label: 'Subpages',
      hint: "A live list of this page's child pages",
      aliases: ['children', 'child', 'pages', 'subpage'],
      run: (e, r) => chainAt(e, r).insertContent({ type: 'subpages' }).run(),
    },
    {
      key: 'toc',
      label: 'Table of contents',
      hint: "A live list of this page's headings",
      aliases: ['toc', 'contents', 'outline', 'headings'],
      run: (e, r) => chainAt(e, r).insertContent({ type: 'tableOfContents' }).run(),
    },
    {
      key: 'callout',
      label: 'Callout',
      hint: 'A coloured box for a note or warning',
      aliases: ['info', 'note', 'warning', 'admonition', 'alert'],
      run: (e, r) => chainAt(e, r).wrapIn('callout', { type: 'info' }).run(),
    },
    {
      key: 'toggle',
      label: 'Toggle',
      hint: 'A summary that opens to show more',
      aliases: ['details', 'collapse', 'expand', 'accordion'],
      run: (e, r) =>
        chainAt(e, r)
          .insertContent({
            type: 'details',
            content: [
              { type: 'detailsSummary', content: [{ type: 'text', text: 'Toggle' }] },
              { type: 'detailsContent', content: [{ type: 'paragraph' }] },
            ],
          })
          .run(),
    },
    ...[2, 3].map((count) => ({
      key: `columns-${count}`,
      label: `${count} columns`,
      hint: count === 2 ? 'Blocks side by side, in two columns' : 'Blocks side by side, in three columns',
      aliases: ['columns', 'layout', 'side', `${count}col`],
      offered: (e: Editor) => !inColumn(e),
      run: (e: Editor, r: Range) => {
        chainAt(e, r).run();
        insertColumns(e, count);
      },
    })),
    {
      key: 'math',
      label: 'Math block',
      hint: 'A formula in TeX',
      aliases: ['equation', 'latex', 'tex', 'katex'],
      run: (e, r) =>
        chainAt(e, r)
          .insertContent({ type: 'mathBlock', attrs: { latex: '' } })
          .run(),
    },
    {
      key: 'inline-math',
      label: 'Inline math',
      hint: 'A formula inside the line',
      aliases: ['equation', 'latex', 'tex'],
      run: (e, r) =>
        chainAt(e, r)
          .insertContent({ type: 'mathInline', attrs: { latex: '' } })
          .run(),
    },
    {
      key: 'diagram',
      label: 'Diagram',
      hint: 'A Mermaid flowchart or sequence diagram',
      aliases: ['mermaid', 'flowchart', 'chart'],
      run: (e, r) =>
        chainAt(e, r)
          .insertContent({ type: 'codeBlock', attrs: { language: 'mermaid' }, content: [{ type: 'text', text: 'graph TD\n  A[Start] --> B[Done]' }] })
          .run(),
    },
    {
      key: 'date',
      label: 'Date',
      hint: 'Today’s date; click it to pick another',
      aliases: ['today', 'day', 'calendar', 'deadline', 'due'],
      run: (e, r) =>
        chainAt(e, r)
          .insertContent([
            { type: 'date', attrs: { date: todayIso() } },
            { type: 'text', text: ' ' },
          ])
          .run(),
    },
    {
      key: 'emoji',
      label: 'Emoji',
      hint: 'Pick one by name or group (or type :smile:)',
      aliases: ['emoticon', 'smiley', 'icon', 'reaction'],
      run: (e, r) => {
        chainAt(e, r).run();
        (e as unknown as { emit(event: string): void }).emit(EMOJI_PICKER_EVENT);
      },
    },
    {
      key: 'footnote',
      label: 'Footnote',
      hint: 'A numbered note at the end of the page',
      aliases: ['note', 'reference', 'citation', 'cite', 'fn'],
      run: (e, r) => {
        // It sits right after its word: the space "/" needed before it goes.
        const from = r.from > 1 && e.state.doc.textBetween(r.from - 1, r.from) === ' ' ? r.from - 1 : r.from;
        chainAt(e, { from, to: r.to })
          .insertContent({ type: 'footnote', attrs: { text: '' } })
          .run();
        // Select the new footnote and open its field.
        const at = e.state.selection.from - 1;
        if (e.state.doc.nodeAt(at)?.type.name !== 'footnote') return;
        e.chain().setNodeSelection(at).run();
        (e as unknown as { emit(event: string): void }).emit(OPEN_FOOTNOTE_EVENT);
      },
    },
    { key: 'divider', label: 'Divider', hint: 'A horizontal line', aliases: ['hr', 'rule', 'line'], run: (e, r) => chainAt(e, r).setHorizontalRule().run() },
    {
      key: 'template',
      label: 'Template',
      hint: 'Put in a saved template here',
      aliases: ['snippet', 'boilerplate'],
      run: (e, r) => {
        chainAt(e, r).run();
        requestTemplateInsert(e);
      },
    },
  ];
}

export interface SlashMenuOptions {
  /** Lets the person choose files of the types `accept` names (any when empty) and inserts them as blocks. */
  onPick: (editor: Editor, accept: string) => void;
}

/** "/" at the start of a word opens the block menu; typing filters it. Adds no node or mark to the schema. */
export const SlashMenu = Extension.create<SlashMenuOptions>({
  name: 'slashMenu',
  addOptions() {
    return { onPick: () => {} };
  },
  addProseMirrorPlugins() {
    const all = blocks(this.options.onPick);
    return [
      Suggestion<SuggestionItem>({
        editor: this.editor,
        pluginKey: new PluginKey('slashMenu'),
        char: '/',
        allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
        items: ({ query, editor }) => {
          const q = query.toLowerCase();
          return all.filter((b) => (b.label.toLowerCase().includes(q) || b.aliases.some((a) => a.startsWith(q))) && (b.offered?.(editor) ?? true));
        },
        command: ({ editor, range, props }) => all.find((b) => b.key === props.key)?.run(editor, range),
        render: renderList('Insert block', 'No block matches'),
        floatingUi: LIST_PLACEMENT,
      }),
    ];
  },
});
