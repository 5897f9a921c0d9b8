import type { Editor } from '@tiptap/react';
import { lazy, Suspense } from 'react';
import { CaretMenu } from '../CaretMenu';
import { EMOJI_PICKER_EVENT } from '../slash-menu';
import { insertEmoji } from './emoji-suggestion';
import './emoji.css';

const EmojiPicker = lazy(() => import('./EmojiPicker'));

/** The emoji picker under the caret, opened by the slash menu's "Emoji"; the emoji picked goes in at the caret as text. */
export function EmojiMenu({ editor }: { editor: Editor }) {
  return (
    <CaretMenu editor={editor} event={EMOJI_PICKER_EVENT} menuKey="kbEmojiPicker">
      {(_arg, close) => (
        <Suspense fallback={<div className="kb-emoji-picker" />}>
          <EmojiPicker
            onClose={() => {
              close();
              editor.commands.focus();
            }}
            onPick={(char) => {
              const { from, to } = editor.state.selection;
              insertEmoji(editor, { from, to }, char);
              close();
            }}
          />
        </Suspense>
      )}
    </CaretMenu>
  );
}
