import { common, createLowlight } from 'lowlight';

/**
 * highlight.js with its common grammars (about 160 KB of the page screen's code before it was split out): loaded by
 * `code-highlight.ts` when a document first shows a code block, not with the editor.
 */
export const lowlight = createLowlight(common);
