import type { ToolRegistry } from './registry.js';

/** What an agent is told at `initialize`: the conventions every tool follows. */
export function instructions(registry: ToolRegistry): string {
  const cats = registry
    .categories()
    .map((c) => `${c.id} (${c.name}, ${c.toolCount})`)
    .join(', ');
  return `This server is a team knowledge base and task manager: workspaces contain spaces, spaces contain a tree of pages; tasks, projects and goals live in a workspace.

Conventions:
- Start with workspace_list to get a workspaceId; most tools take it. space_list gives spaceIds; page_list and search_query find pages.
- Ids are opaque strings: copy them from earlier results, never guess.
- Write page content as Markdown (the \`markdown\` argument of page_create and page_update); page_get returns Markdown by default (\`format: "json"\` gives the document tree).
- Results are short JSON: ids, titles and the fields you need next. Lists return \`{ items, total, hasMore }\` with \`page\`/\`limit\` (or \`offset\`/\`limit\`) paging; ask for the next page while hasMore is true.
- You act with your own permissions: viewers read, editors write, admins manage members and settings.
- Errors carry a code: NOT_FOUND (the id names nothing you can see), FORBIDDEN (your role is too low), VALIDATION_ERROR (an argument is wrong; details.field names it), MISSING_REQUIRED, ALREADY_EXISTS, DELETED (in the trash: page_recover brings it back), RATE_LIMITED (retry later). Fix the argument named and try again rather than guessing.
- Deleting a page moves it to the trash (page_trash_list, page_recover); space_delete, task_delete and attachment_delete are permanent.
- Not sure which tool fits? Call tool_search with a few words.

Categories: ${cats}.`;
}
