import MiniSearch from 'minisearch';
import { z } from 'zod';
import { structuredContentSchema } from './call.js';
import * as catalog from './catalog.js';
import { CATEGORIES, type CategoryId } from './categories.js';
import type { AnyTool, ToolAnnotations, ToolCatalog } from './tool.js';

/** A JSON Schema of an object, as MCP wants a tool's `inputSchema` and `outputSchema`. */
export type ObjectSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };

/**
 * A tool as clients see it (`tools/list`, `/mcp-standard/list_tools`). Its `outputSchema` is kept apart
 * (`ToolRegistry.outputSchema`): `/api/mcp` lists it, the seed's `/mcp-standard` does not.
 */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  category: CategoryId;
  inputSchema: ObjectSchema;
  annotations: ToolAnnotations & { title: string };
}

export interface Category {
  id: CategoryId;
  name: string;
  description: string;
  toolCount: number;
}

/** A tool name: lower-case words joined by underscores, area first (several model APIs refuse a dot in a function name). */
export const TOOL_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Names the seed's interface gave tools before they followed the rule: still callable everywhere, and what the
 * seed's `/mcp-standard` endpoints list (unchanged for clients written against it); `/api/mcp` lists the new name.
 */
export const SEED_NAMES: Readonly<Record<string, string>> = { knowledge_search: 'knowledge.search' };
const CANONICAL = new Map(Object.entries(SEED_NAMES).map(([name, seed]) => [seed, name]));

/** A tool's descriptor under the name the seed's interface gave it (the same descriptor for every other tool). */
export const seedNamed = <D extends { name: string }>(d: D): D => (SEED_NAMES[d.name] ? { ...d, name: SEED_NAMES[d.name] } : d);

/** Words too common in a request to tell tools apart. */
const STOP = new Set(
  'a an and are as at be by can do does for from get how i in into is it me my of on or please should show some that the their them this to up use want what which who with you your'.split(
    ' ',
  ),
);

/** Lower case, and a plain English plural to its singular (pages → page, entries → entry), so forms match. */
function normalize(term: string): string | null {
  const t = term.toLowerCase();
  if (STOP.has(t)) return null;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) return t.slice(0, -1);
  return t;
}

/**
 * The schema a tool call is validated with: the tool's own, refusing unknown arguments (a misspelt argument name is
 * an error an agent can fix, not an argument silently ignored).
 */
export const argumentsSchema = (tool: AnyTool) => tool.input.strict();

/**
 * A zod schema of an object as JSON Schema: the values it accepts as input. For arguments that is what a call may
 * send; for a result, what a handler may return (the type its handler is checked against), sent as it is, unparsed.
 */
function objectSchemaOf(schema: z.ZodType): ObjectSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...json, type: 'object' };
}

/** The JSON Schema of a tool's arguments: what its arguments schema accepts as input. */
export const inputSchemaOf = (tool: AnyTool) => objectSchemaOf(argumentsSchema(tool));

/** The JSON Schema of a tool's `structuredContent` (MCP `outputSchema`): what its output schema describes, wrapped as a result wraps it. */
export const outputSchemaOf = (tool: AnyTool) => objectSchemaOf(structuredContentSchema(tool.output));

/**
 * The catalog: every tool by name, their descriptors (JSON Schema computed once), the categories with their counts,
 * and a BM25 index (MiniSearch) over name, title, category and description for `search_tools` / `tool_search`.
 */
export class ToolRegistry implements ToolCatalog {
  readonly tools: readonly AnyTool[];
  private readonly byName = new Map<string, AnyTool>();
  private readonly argumentSchemas = new Map<string, z.ZodObject>();
  private readonly descriptors = new Map<string, ToolDescriptor>();
  private readonly outputSchemas = new Map<string, ObjectSchema>();
  private readonly index: MiniSearch;

  constructor(tools: readonly AnyTool[]) {
    this.tools = tools;
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" is not lower-case words joined by underscores`);
      if (this.byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is declared twice`);
      if (!CATEGORIES.some((c) => c.id === tool.category)) throw new Error(`Tool "${tool.name}" has an unknown category "${tool.category}"`);
      this.byName.set(tool.name, tool);
      this.argumentSchemas.set(tool.name, argumentsSchema(tool));
      this.descriptors.set(tool.name, {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        category: tool.category,
        inputSchema: inputSchemaOf(tool),
        annotations: { title: tool.title, ...tool.annotations },
      });
      this.outputSchemas.set(tool.name, outputSchemaOf(tool));
    }
    this.index = new MiniSearch({
      fields: ['name', 'title', 'category', 'description'],
      storeFields: [],
      tokenize: (text) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean),
      processTerm: normalize,
      searchOptions: {
        boost: { name: 4, title: 2, category: 2, description: 1 },
        prefix: (t) => t.length >= 3,
        fuzzy: (t) => (t.length >= 5 ? 0.2 : 0),
        combineWith: 'OR',
      },
    });
    this.index.addAll(
      tools.map((t) => {
        const cat = CATEGORIES.find((c) => c.id === t.category);
        return {
          id: t.name,
          name: t.name.replace(/[._]/g, ' '),
          title: t.title,
          category: `${t.category.replace(/_/g, ' ')} ${cat?.name ?? ''}`,
          description: t.description,
        };
      }),
    );
  }

  /** The tool called `name`, or whose seed name it is (`knowledge.search`). */
  get(name: string): AnyTool | undefined {
    return this.byName.get(CANONICAL.get(name) ?? name);
  }

  /** The schema that validates a call's arguments. */
  argumentsOf(name: string): z.ZodObject | undefined {
    return this.argumentSchemas.get(CANONICAL.get(name) ?? name);
  }

  describe(name: string): ToolDescriptor {
    const d = this.descriptors.get(name);
    if (!d) throw new Error(`No tool ${name}`);
    return d;
  }

  /** The JSON Schema of what the tool answers (its `structuredContent`). */
  outputSchema(name: string): ObjectSchema {
    const schema = this.outputSchemas.get(name);
    if (!schema) throw new Error(`No tool ${name}`);
    return schema;
  }

  list(): ToolDescriptor[] {
    return this.tools.map((t) => this.describe(t.name));
  }

  /** Categories that have tools, in catalog order, with their counts. */
  categories(): Category[] {
    return CATEGORIES.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      toolCount: this.tools.filter((t) => t.category === c.id).length,
    })).filter((c) => c.toolCount > 0);
  }

  category(id: string): Category | undefined {
    return this.categories().find((c) => c.id === id);
  }

  byCategory(id: string): ToolDescriptor[] {
    return this.tools.filter((t) => t.category === id).map((t) => this.describe(t.name));
  }

  /** The tools best matching `query`, best first, with their BM25 scores (rounded). */
  search(query: string, limit: number): Array<ToolDescriptor & { score: number }> {
    return this.index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ ...this.describe(String(hit.id)), score: Math.round(hit.score * 1000) / 1000 }));
  }
}

/** Every array of tools the catalog module exports, in one list. */
export const ALL_TOOLS: readonly AnyTool[] = Object.values(catalog as Record<string, readonly AnyTool[]>).flat();

let shared: ToolRegistry | undefined;

/** The process-wide registry (built on first use: JSON Schemas and the search index once). */
export function toolRegistry(): ToolRegistry {
  shared ??= new ToolRegistry(ALL_TOOLS);
  return shared;
}
