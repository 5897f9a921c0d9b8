import type { z } from 'zod';
import type { Ctx } from '../context.js';
import type { JourneyStore } from '../http/journey.js';
import type { CategoryId } from './categories.js';

/**
 * A tool is data: a name, a category, a description written for an agent, the zod schema that validates its
 * arguments (the same field schemas REST validates with), MCP annotations, and a handler that calls the area's
 * service with the caller's context. No tool holds a rule or a query of its own.
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
  search(query: string, limit: number): Array<{ name: string; score: number }>;
}

export interface ToolDef<S extends z.ZodObject> {
  /** Lower-case words joined by underscores, area first (`page_create`); `knowledge.search` is the one exception. */
  name: string;
  /** A short human title (MCP `title`). */
  title: string;
  category: CategoryId;
  /** What it does, when to use it, what it returns: for an agent choosing a tool. */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  handler: (ctx: ToolCtx, args: z.output<S>) => Promise<unknown>;
}

/** A tool with its argument type erased, as the registry holds it. */
export interface AnyTool {
  name: string;
  title: string;
  category: CategoryId;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  handler: (ctx: ToolCtx, args: never) => Promise<unknown>;
}

/** Declares a tool, checking the handler against its input schema. */
export const defineTool = <S extends z.ZodObject>(tool: ToolDef<S>): AnyTool => tool as unknown as AnyTool;

/** Annotations of the three kinds of tool. */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DELETE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** A page of a list, the same shape for every list tool. */
export interface Paged<T> {
  items: T[];
  total: number;
  limit: number;
  page?: number;
  offset?: number;
  hasMore: boolean;
}

export function paged<T>(items: T[], meta: { page: number; limit: number; total: number }): Paged<T> {
  return { items, total: meta.total, page: meta.page, limit: meta.limit, hasMore: meta.page * meta.limit < meta.total };
}

export function offsetPaged<T>(items: T[], meta: { offset: number; limit: number; total: number }): Paged<T> {
  return { items, total: meta.total, offset: meta.offset, limit: meta.limit, hasMore: meta.offset + items.length < meta.total };
}

/** A whole (unpaged) list. */
export const listOf = <T>(items: T[]) => ({ items, total: items.length });
