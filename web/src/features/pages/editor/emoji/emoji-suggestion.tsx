import { type Editor, Extension, InputRule, type Range } from '@tiptap/core';
import { type EditorState, PluginKey } from '@tiptap/pm/state';
import { Suggestion } from '@tiptap/suggestion';
import { LIST_PLACEMENT, renderList, type SuggestionItem } from '../SuggestionList';
import { type EmojiData, emojisIfLoaded, loadEmojis, searchEmojis } from './emoji-data';

/** ":" then two letters opens the list (":30" in "10 :30", or a lone ":" in prose, does not). */
const SHORTCODE_QUERY = /^[a-z]{2}[a-z0-9_+-]*$/i;
/** A whole shortcode typed, `:smile:`, after a space or at the start of the line. */
const WHOLE_SHORTCODE = /(?<=^|\s):([a-z0-9_+-]+):$/i;

/** Puts the emoji in as plain text in place of `range` (the typed ":smi"): no node, so Markdown holds the character. */
export function insertEmoji(editor: Editor, range: Range, char: string) {
  return editor
    .chain()
    .focus()
    .command(({ tr }) => {
      tr.insertText(char, range.from, range.to);
      return true;
    })
    .run();
}

const inCode = (state: EditorState, range: Range) =>
  !!state.doc.resolve(range.from).parent.type.spec.code || state.doc.rangeHasMark(range.from, range.to, state.schema.marks.code);

/** The list's options: the emoji, its shortcode and its name. The option's key is the character itself (unique). */
function options(data: EmojiData, query: string): SuggestionItem[] {
  return searchEmojis(data, query, 8).map(({ emoji, code }) => ({
    key: emoji.char,
    label: `:${code}:`,
    hint: emoji.name,
    icon: (
      <span className="kb-emoji-option" aria-hidden="true">
        {emoji.char}
      </span>
    ),
  }));
}

/**
 * Emoji by shortcode, as plain text: ":" and two letters list matching shortcodes (GitHub's, from emojibase) beside
 * the caret (the "/" menu's list: arrows, Enter or Tab, a click), and a whole `:smile:` typed becomes 😄 (Tiptap's
 * input rule). The data loads on the first ":sm" (emoji-data.ts). Adds no node or mark.
 */
export const EmojiSuggestion = Extension.create({
  name: 'emojiSuggestion',
  addProseMirrorPlugins() {
    return [
      Suggestion<SuggestionItem>({
        editor: this.editor,
        pluginKey: new PluginKey('emojiSuggestion'),
        char: ':',
        allow: ({ state, range }) => !inCode(state, range),
        shouldShow: ({ query }) => SHORTCODE_QUERY.test(query),
        items: async ({ query }) => options(await loadEmojis(), query),
        command: ({ editor, range, props }) => insertEmoji(editor, range, props.key),
        render: renderList('Emoji', 'No emoji matches'),
        floatingUi: LIST_PLACEMENT,
      }),
    ];
  },
  addInputRules() {
    const editor = this.editor;
    return [
      new InputRule({
        find: WHOLE_SHORTCODE,
        handler: ({ state, range, match }) => {
          const code = match[1].toLowerCase();
          const data = emojisIfLoaded();
          if (data) {
            const emoji = data.byCode.get(code);
            if (emoji) state.tr.insertText(emoji.char, range.from, range.to);
            return;
          }
          // Typed before the data arrived: the text goes in as typed, and turns into the emoji once it is here (if it is still there).
          const { from } = range;
          void loadEmojis().then((loaded) => {
            const emoji = loaded.byCode.get(code);
            const to = from + match[0].length;
            if (!emoji || editor.isDestroyed || to > editor.state.doc.content.size) return;
            if (editor.state.doc.textBetween(from, to) === match[0]) editor.view.dispatch(editor.state.tr.insertText(emoji.char, from, to));
          });
        },
      }),
    ];
  },
});
