import { getSchema } from '@tiptap/core';
import { extensions } from './extensions.js';

/** The ProseMirror schema of page content, built from the same Tiptap extensions the web editor uses. */
export const schema = getSchema(extensions);
