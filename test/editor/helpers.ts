import { expect } from 'vitest';
import { validateDocument } from '../../src/editor/index.js';
import { AppError } from '../../src/errors.js';

/** ProseMirror JSON built by hand: a paragraph, a text node (with marks), a document. */
export const p = (...content: object[]) => ({ type: 'paragraph', content });
export const text = (t: string, marks?: object[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
export const docOf = (...content: object[]) => ({ type: 'doc', content });

/** The message validateDocument refuses `json` with (a 422); fails the test when it is accepted. */
export function refused(json: unknown): string {
  try {
    validateDocument(json);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    return String((err as AppError).message);
  }
  throw new Error('expected the document to be refused');
}
