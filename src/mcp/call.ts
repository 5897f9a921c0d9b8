import { z } from 'zod';
import type { Ctx } from '../context.js';
import { AppError, readOnlyKeyRefusal } from '../errors.js';
import { toAppError } from '../http/errors.js';
import { validationError } from '../http/validation.js';
import type { ToolRegistry } from './registry.js';
import type { AnyTool, ToolCtx, ToolEnv } from './tool.js';

/** An MCP tool result (`tools/call`, `/mcp-standard/call_tool`). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

export const unknownTool = (name: string) =>
  new AppError('NOT_FOUND', `Unknown tool "${name}"; list_tools or tool_search show the tools there are`, { resource: 'Tool', tool: name });

/**
 * Arguments that do not fit the tool's schema: 422 VALIDATION_ERROR naming the field, whatever the failure (a missing
 * argument included: a tool call has no query string or path, only arguments).
 */
function argumentsError(tool: AnyTool, issues: Parameters<typeof validationError>[1], args: unknown): AppError {
  // A misspelt argument name first: it usually explains the "missing" one too.
  const first = issues.find((i) => i.code === 'unrecognized_keys');
  if (first?.code === 'unrecognized_keys') {
    const field = [...first.path.map(String), first.keys[0]].join('.');
    const known = Object.keys(tool.input.shape).join(', ') || '(none)';
    return new AppError('VALIDATION_ERROR', `${tool.name}: unknown argument "${field}"; the arguments are: ${known}`, {
      tool: tool.name,
      field,
      reason: 'unknown_argument',
    });
  }
  const e = validationError('body', issues, args);
  const { field, reason } = e.details as { field: string; reason: string };
  const message = e.code === 'MISSING_REQUIRED' ? `Missing required argument "${field}"` : `Invalid argument "${field}": ${reason}`;
  return new AppError('VALIDATION_ERROR', `${tool.name}: ${message}`, { tool: tool.name, ...e.details });
}

/**
 * Runs a tool as the caller: finds it (404 with details.tool), validates the arguments with its schema (422), then
 * calls its handler. Domain errors come out as the AppError REST would answer with.
 */
export async function callTool(registry: ToolRegistry, ctx: Ctx, env: ToolEnv, name: string, args: unknown): Promise<unknown> {
  const tool = registry.get(name);
  if (!tool) throw unknownTool(name);
  const given = args ?? {};
  if (typeof given !== 'object' || Array.isArray(given))
    throw new AppError('VALIDATION_ERROR', '`arguments` must be an object', { tool: name, field: 'arguments', reason: 'must be an object' });
  const parsed = (registry.argumentsOf(name) ?? tool.input).safeParse(given);
  if (!parsed.success) throw argumentsError(tool, parsed.error.issues, given);
  if (ctx.actor?.readOnly && !tool.annotations.readOnlyHint) throw readOnlyKeyRefusal();
  const toolCtx: ToolCtx = { ...ctx, mcp: env };
  return tool.handler(toolCtx, parsed.data as never);
}

/** A handler's value as an MCP result: the JSON as text, and as structured content (always an object: `{ result }` around any other value). */
export function toolResult(value: unknown): ToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value ?? null };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, isError: false };
}

/** What `toolResult` makes structured content of a value `output` describes: the value, if it is an object; else `{ result }`. */
export const structuredContentSchema = (output: z.ZodType): z.ZodType => (isObjectSchema(output) ? output : z.object({ result: output }));

const isObjectSchema = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodObject || (schema instanceof z.ZodUnion && (schema.options as z.ZodType[]).every(isObjectSchema));

/**
 * An error as an MCP result (`isError: true`): the code first in the text, then the message and details as JSON. No
 * `structuredContent`: a tool's `outputSchema` describes its results, and clients check a structured error against
 * it too (the official SDK's does, and throws "does not match the tool's output schema" in place of the error).
 */
export function errorResult(err: unknown): { result: ToolResult; error: AppError } {
  const e = toAppError(err as Error);
  const error = { code: e.code, status: e.status, message: e.message, details: e.details };
  return {
    result: { content: [{ type: 'text', text: `${e.code}: ${e.message}\n${JSON.stringify({ error })}` }], isError: true },
    error: e,
  };
}
