import { checkEmbedUrl } from '@editor/embeds';
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';

/**
 * A link to an allowed player (YouTube, Figma, Loom…: the shared allow-list) pasted alone on an empty line becomes the
 * embed, as in Notion and Outline; anywhere else, or any other link, it stays a link (the Link extension's own paste).
 * Ctrl/Cmd-Z takes the embed back to the empty line. Before Link's handler (priority), after nothing else: a paste
 * with files or several words is not a link.
 */
export const PasteEmbed = Extension.create({
  name: 'pasteEmbed',
  priority: 1100,
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('pasteEmbed'),
        props: {
          handlePaste(view, event) {
            if (!editor.isEditable || event.clipboardData?.files.length) return false;
            const text = event.clipboardData?.getData('text/plain')?.trim() ?? '';
            const { empty, $from } = view.state.selection;
            if (!text || !empty || $from.parent.type.name !== 'paragraph' || $from.parent.content.size > 0) return false;
            const check = checkEmbedUrl(text);
            if (!check.ok) return false;
            return editor
              .chain()
              .insertContent({ type: 'embed', attrs: { src: check.src, provider: check.provider.id } })
              .run();
          },
        },
      }),
    ];
  },
});
