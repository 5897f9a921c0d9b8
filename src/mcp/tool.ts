import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { JourneyStore } from '../http/journey.js';
import type { CategoryId } from './categories.js';
import type { ToolDescriptor } from './registry.js';

/**
 * A tool is data: a name, a category, a description written for an agent, the zod schema that validates its
 * arguments (the same field schemas REST validates with), the zod schema of its result (the one REST presents the
 * resource with), MCP annotations, and a handler that calls the area's service with the caller's context. No tool
 * holds a rule or a query of its own.
 */
export interface ToolAnnotations {
  /** Changes nothing. */
  readOnlyHint: boolean;
  /** May delete or overwrite something irreversibly (or make it invisible). Meaningful when not read-only. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** Reaches outside the service (the web, a repository). */
  openWorldHint?: boolean;
}

/** What a tool's handler receives: the caller's service context plus the catalog and app-level collaborators. */
export interface ToolCtx extends Ctx {
  mcp: ToolEnv;
}

export interface ToolEnv {
  /** The catalog itself (for `tool_search`). */
  catalog: ToolCatalog;
  /** Recent requests per user (attached to user-made bug reports). */
  journeys: JourneyStore;
}

/** The part of the registry a handler may use (kept here so tool files do not import the registry). */
export interface ToolCatalog {
  /** The tools best matching `query`, best first: their descriptors (name, description, inputSchema, …) and scores. */
  search(query: string, limit: number): Array<ToolDescriptor & { score: number }>;
}

/** A page a tool's result names: given to MCP clients as a resource link (`kb://pages/<id>`) they can read. */
export interface PageRef {
  id: string;
  title: string;
}

export interface ToolDef<S extends z.ZodObject, O extends z.ZodType> {
  /** Lower-case words joined by underscores, area first (`page_create`); a name with a dot would be refused by model APIs. */
  name: string;
  /** A short human title (MCP `title`). */
  title: string;
  category: CategoryId;
  /** What it does, when to use it, what it returns: for an agent choosing a tool. */
  description: string;
  input: S;
  /**
   * What the handler returns (MCP `structuredContent`; its JSON Schema is the tool's `outputSchema`): the schema the
   * matching REST route presents the resource with (the record inside its `{ data }`), or a list of it (`ItemList`,
   * `PagedList`, `OffsetPagedList`). The handler is type-checked against it.
   */
  output: O;
  annotations: ToolAnnotations;
  handler: (ctx: ToolCtx, args: z.output<S>) => Promise<z.input<O>>;
  /**
   * The pages its result names (search hits, list rows), which the MCP transport adds to the result as
   * `resource_link` content: a client reads the page it wants with `resources/read` instead of the tool inlining it.
   */
  pages?: (result: z.input<O>) => PageRef[];
  /**
   * Asks the person before it runs (over MCP 2026-07-28, to a client that can ask): the question. Tools that may
   * destroy something (`destructiveHint`) ask by default (`confirmationOf`); a tool that hides or moves a lot without
   * being irreversible (moving a page tree to the trash) says so here.
   */
  confirm?: (args: z.output<S>) => string;
}

/** A tool with its argument type erased, as the registry holds it. */
export interface AnyTool {
  name: string;
  title: string;
  category: CategoryId;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  annotations: ToolAnnotations;
  handler: (ctx: ToolCtx, args: never) => Promise<unknown>;
  pages?: (result: never) => PageRef[];
  confirm?: (args: never) => string;
}

/** The question a tool asks before it runs, or null for a tool that just runs. */
export function confirmationOf(tool: AnyTool, args: Record<string, unknown>): string | null {
  if (tool.confirm) return tool.confirm(args as never);
  if (!tool.annotations.destructiveHint) return null;
  const target = Object.entries(args)
    .filter(([k, v]) => k.endsWith('Id') && k !== 'workspaceId' && typeof v === 'string')
    .map(([k, v]) => `${k.slice(0, -2)} ${v}`)
    .join(', ');
  return `${tool.title}${target ? ` (${target})` : ''}: this cannot be undone. Go ahead?`;
}

/** Declares a tool, checking the handler against its input and output schemas (and `pages` against what the handler returns). */
export const defineTool = <S extends z.ZodObject, O extends z.ZodType>(tool: ToolDef<S, O>): AnyTool => tool as unknown as AnyTool;

/** Annotations of the three kinds of tool. */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DELETE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** A whole (unpaged) list. */
export const listOf = <T>(items: T[]) => ({ items, total: items.length });

/** A page of a list, the same shape for every list tool. */
export function paged<T>(items: T[], meta: { page: number; limit: number; total: number }) {
  return { items, total: meta.total, page: meta.page, limit: meta.limit, hasMore: meta.page * meta.limit < meta.total };
}

export function offsetPaged<T>(items: T[], meta: { offset: number; limit: number; total: number }) {
  return { items, total: meta.total, offset: meta.offset, limit: meta.limit, hasMore: meta.offset + items.length < meta.total };
}

/** The schema of `listOf(items)`. */
export const ItemList = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().describe('How many there are in all') });

const PageOfList = <T extends z.ZodType>(item: T) =>
  ItemList(item).extend({ limit: z.number(), hasMore: z.boolean().describe('Whether there are more after this page') });

/** The schema of `paged(items, meta)`. */
export const PagedList = <T extends z.ZodType>(item: T) => PageOfList(item).extend({ page: z.number() });

/** The schema of `offsetPaged(items, meta)`. */
export const OffsetPagedList = <T extends z.ZodType>(item: T) => PageOfList(item).extend({ offset: z.number() });
