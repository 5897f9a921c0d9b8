/** Page content: the schema (from Tiptap extensions), validation, plain text and Markdown both ways. */
export { extensions } from './extensions.js';
export { documentToMarkdown, markdownToDocument } from './markdown.js';
export { schema } from './schema.js';
export { documentToText } from './text.js';
export { type DocJson, type DocumentProblem, documentError, documentsEqual, emptyDocument, parseDocument, validateDocument } from './validate.js';
