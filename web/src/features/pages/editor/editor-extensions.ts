import { extensions as shared } from '@editor/extensions';
import { type AnyExtension, type Editor, Extension } from '@tiptap/core';
import { NodeRange } from '@tiptap/extension-node-range';
import { Placeholder } from '@tiptap/extensions';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { BlockViews, withBlockView } from './block-views';
import { BlocksNearCaret } from './blocks-near-caret';
import { CodeBlockBar } from './code-block-view';
import { CodeHighlight } from './code-highlight';
import { EmojiSuggestion } from './emoji/emoji-suggestion';
import { MoveBlock } from './block-move';
import { isLinkable, LinkHandling } from './links';
import { FindReplace } from './find-replace';
import { loadMarkdownConverter, looksLikeMarkdown, markdownConverter, markdownToContent } from './markdown-paste';
import { withMentionChips } from './mention-chips';
import { withMentionSuggestions } from './mentions';
import { PasteEmbed } from './paste-embed';
import { SlashMenu } from './slash-menu';
import { insertFiles, pickFiles, type UploadTarget } from './uploads';

/** Files and Markdown coming in by paste or drop. HTML paste is ProseMirror's own (parsed by the shared schema). */
function pasteAndDrop(target: UploadTarget) {
  return Extension.create({
    name: 'pasteAndDrop',
    addProseMirrorPlugins() {
      const editor = this.editor as Editor;
      return [
        new Plugin({
          key: new PluginKey('pasteAndDrop'),
          props: {
            handlePaste(view, event) {
              const files = Array.from(event.clipboardData?.files ?? []);
              if (files.length) {
                void insertFiles(editor, target, files);
                return true;
              }
              const html = event.clipboardData?.getData('text/html');
              const text = event.clipboardData?.getData('text/plain');
              if (html || !text || view.state.selection.$from.parent.type.spec.code || !looksLikeMarkdown(text)) return false;
              const convert = markdownConverter();
              if (convert) {
                const content = markdownToContent(text, convert);
                return content ? editor.chain().focus().insertContent(content).run() : false;
              }
              // The converter's code is not here yet (it loads on focus): take the paste, and put it in once it is,
              // converted, or as plain text if it cannot be.
              void loadMarkdownConverter().then((loaded) => {
                if (editor.isDestroyed) return;
                const content = loaded ? markdownToContent(text, loaded) : null;
                if (content) editor.chain().focus().insertContent(content).run();
                else editor.view.dispatch(editor.state.tr.insertText(text));
              });
              return true;
            },
            handleDOMEvents: {
              focus() {
                void loadMarkdownConverter();
                return false;
              },
            },
            handleDrop(view, event, _slice, moved) {
              const files = Array.from(event.dataTransfer?.files ?? []);
              if (moved || !files.length) return false;
              event.preventDefault();
              const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
              void insertFiles(editor, target, files, at);
              return true;
            },
          },
        }),
      ];
    },
  });
}

/** The shared extension as the web editor runs it: mentions get their suggestion UI and chips; undo is co-editing's own. */
function forTheWebEditor(ext: AnyExtension, target: UploadTarget): AnyExtension {
  if (ext.name === 'mention') return withMentionChips(withMentionSuggestions(ext, target.workspaceId), { reading: false, workspaceId: target.workspaceId });
  // ProseMirror's history would undo other people's edits too; Collaboration brings a Yjs undo that only takes back one's own.
  // Bare URLs typed or pasted become links (only those the shared schema accepts); following a link is LinkHandling's.
  if (ext.name === 'starterKit')
    return ext.configure({
      undoRedo: false,
      link: {
        openOnClick: false,
        autolink: true,
        linkOnPaste: true,
        defaultProtocol: 'https',
        isAllowedUri: (url: string, ctx: { defaultValidate: (url: string) => boolean }) => ctx.defaultValidate(url) && isLinkable(url),
      },
    });
  return withBlockView(ext, target);
}

/**
 * The page editor's extensions: exactly the shared schema (`@editor/extensions`, the server's too), with the
 * mention node given its suggestion UI, plus helpers that add no node or mark: placeholder, code colours and the code
 * block's bar (language, Copy), the "/"
 * menu, ":" emoji, moving blocks (Alt+Shift+↑/↓, and the selection the drag handle makes), paste/drop handling, and the blocks near the caret kept rendered on a long page. Co-editing adds its own (collab/collab-extensions.ts).
 */
export function editorExtensions(target: UploadTarget): AnyExtension[] {
  const schemaExtensions = shared.map((ext) => forTheWebEditor(ext, target));
  return [
    ...schemaExtensions,
    Placeholder.configure({ placeholder: 'Type "/" for blocks, "@" to mention someone…' }),
    CodeHighlight,
    CodeBlockBar,
    SlashMenu.configure({ onPick: (editor: Editor, accept: string) => void pickFiles(accept).then((files) => insertFiles(editor, target, files)) }),
    pasteAndDrop(target),
    PasteEmbed,
    BlocksNearCaret,
    LinkHandling,
    BlockViews,
    FindReplace,
    EmojiSuggestion,
    MoveBlock,
    NodeRange,
  ];
}
