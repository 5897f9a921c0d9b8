import { getSchema } from '@tiptap/core';
import { type AttributeSpec, Schema } from '@tiptap/pm/model';
import { extensions } from './extensions.js';

/** The ProseMirror schema of page content, built from the same Tiptap extensions the web editor uses. */
export const schema = getSchema(extensions);

type Specs = Record<string, { attrs?: Record<string, AttributeSpec> }>;

/** The same specs with no attribute `validate`: values are taken as stored. */
function withoutValidation(specs: { forEach(f: (name: string, spec: Specs[string]) => void): void }): Specs {
  const out: Specs = {};
  specs.forEach((name, spec) => {
    const attrs = spec.attrs && Object.fromEntries(Object.entries(spec.attrs).map(([key, attr]) => [key, { ...attr, validate: undefined }]));
    out[name] = { ...spec, ...(attrs ? { attrs } : {}) };
  });
  return out;
}

/**
 * The schema for reading stored content: the same nodes and marks, without attribute validation, since what is
 * stored was validated when it was written, possibly under earlier rules (a `tel:` link from before links were
 * limited to http, https and mailto must still read as text and Markdown).
 */
export const storedSchema = new Schema({ nodes: withoutValidation(schema.spec.nodes) as never, marks: withoutValidation(schema.spec.marks) as never });
