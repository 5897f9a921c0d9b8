import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Deepest JSON nesting (objects and arrays) a body may have on this route; `CONTENT_JSON_DEPTH` when unset. */
    jsonDepth?: number;
  }
}

/** Routes whose bodies are records (accounts, keys, workspaces, members, spaces, groups): far more than they need. */
export const RECORD_JSON_DEPTH = 64;
/**
 * Routes that may carry page content (ProseMirror JSON: two JSON levels per node, nodes up to 64 deep in the editor,
 * plus marks and the envelope of an MCP call): the default, still far below what could hurt.
 */
export const CONTENT_JSON_DEPTH = 200;

/** Index of the quote closing the string opened at `open`, or -1 when it never closes (JSON.parse then reports it). */
function endOfString(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    // A quote is escaped by an odd run of backslashes before it; each run is counted once, so this stays linear.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * Whether JSON text nests deeper than `max`, in one pass over the text (strings skipped with `indexOf`), before it
 * is parsed: a body of thousands of nested arrays is refused without building it or walking it again.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = endOfString(text, i);
      if (i < 0) return false;
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

export function tooDeep(max: number): AppError {
  return new AppError('VALIDATION_ERROR', `The JSON body is nested deeper than ${max} levels`, { field: 'body', reason: 'too_deep', maxDepth: max });
}

/**
 * JSON bodies: an empty body (common on DELETE and action POSTs) is no body, not an error; one nested deeper than
 * the route allows is a 422 before it is parsed; the rest goes to Fastify's parser (which refuses `__proto__`).
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text === '' || text.trim() === '') return done(null, undefined);
    const max = req.routeOptions.config?.jsonDepth ?? CONTENT_JSON_DEPTH;
    if (nestsDeeperThan(text, max)) return done(tooDeep(max), undefined);
    parseJson(req, text, done);
  });
}
