import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import { ErrorBody } from '../schema.js';
import { OPERATION_IDS, TAGS } from './openapi-operations.js';

/**
 * Final touches on the OpenAPI document the routes' zod schemas generate, so clients generated from it read well
 * and validate what the service really answers:
 * - an `operationId` for each operation (openapi-operations.ts) and the tags declared with descriptions;
 * - `null` in the `enum` of every nullable enum (OpenAPI 3.0 validators check `enum` before `nullable`);
 * - the error answers each operation can give, in the error shape, where its route did not document them: 401/403
 *   when it needs credentials, 404 when it names something by id, 400/422 when it takes input, 413 for a body, 429
 *   (rate limit) but on health checks;
 * - the 302 of the routes that redirect.
 */

/** Operations that answer with a redirect, and where to. */
const REDIRECTS: Readonly<Record<string, string>> = {
  'auth.oidc.start': 'To the OpenID provider’s sign-in page (Location)',
  'auth.oidc.callback': 'To the attempt’s returnTo once signed in, or to /login?sso_error=<reason> (Location)',
};

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'MISSING_REQUIRED or INVALID_PARAMETER: a required input is missing or a parameter is malformed',
  401: 'UNAUTHORIZED or TOKEN_EXPIRED: missing, invalid or expired credentials',
  403: 'FORBIDDEN: the caller’s role, key scope or workspace does not allow it',
  404: 'NOT_FOUND: it does not exist or the caller cannot see it',
  413: 'VALIDATION_ERROR: the body is over the size limit',
  422: 'VALIDATION_ERROR: a field is invalid (details.field, details.reason)',
  429: 'RATE_LIMITED: too many requests; Retry-After says when to try again',
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };
/** The error shape, from the same zod schema the routes that document their errors use. */
const ERROR_SCHEMA = (() => {
  const { $schema: _, ...schema } = z.toJSONSchema(ErrorBody, { target: 'openapi-3.0' }) as Record<string, unknown>;
  return schema as OpenAPIV3.SchemaObject;
})();

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The statuses an operation can answer with an error, judged from what it takes and whether it needs credentials. */
function errorStatuses(op: OpenAPIV3.OperationObject, path: string): number[] {
  const statuses = new Set<number>();
  if (op.security?.length) statuses.add(401).add(403);
  if (path.includes('{')) statuses.add(404);
  const params = (op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  if (op.requestBody || params.some((p) => p.in === 'query' || p.in === 'path')) statuses.add(400).add(422);
  if (op.requestBody) statuses.add(413);
  if (!op.tags?.includes('health')) statuses.add(429);
  return [...statuses];
}

/** Adds `null` to the enum of a nullable enum, everywhere in the document. */
function nullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullInNullableEnums(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as { nullable?: boolean; enum?: unknown[] };
  if (schema.nullable && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const value of Object.values(node)) nullInNullableEnums(value);
}

export function finishDocument(doc: OpenAPIV3.Document): OpenAPIV3.Document {
  doc.tags = TAGS.map((t) => ({ ...t }));
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, Error: ERROR_SCHEMA } };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const id = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      if (id) op.operationId = id;
      const responses = op.responses;
      const redirect = id ? REDIRECTS[id] : undefined;
      if (redirect) responses['302'] ??= { description: redirect, headers: { Location: { schema: { type: 'string' } } } };
      for (const status of errorStatuses(op, path))
        responses[String(status)] ??= { description: ERROR_TEXT[status], content: { 'application/json': { schema: ERROR_REF } } };
    }
  }
  nullInNullableEnums(doc.paths);
  nullInNullableEnums(doc.components?.schemas);
  return doc;
}
