/** Page content: the schema (from Tiptap extensions), validation, plain text and Markdown both ways. */
export { extensions } from './extensions.js';
export { documentToMarkdown, markdownToDocument } from './markdown.js';
export { schema } from './schema.js';
export { documentToText } from './text.js';
export {
  checkDocumentDepth,
  type DocJson,
  type DocumentProblem,
  documentError,
  documentsEqual,
  emptyDocument,
  parseDocument,
  readDocument,
  validateDocument,
} from './validate.js';
export { isAllowedImageUrl, isAllowedLinkUrl, schemeOf } from './urls.js';
