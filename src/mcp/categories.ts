/** Tool categories: an id (a tool's `category`) and a name. A category without tools is not listed. */
export const CATEGORIES = [
  { id: 'workspace', name: 'Workspace Management', description: 'Workspaces and their members' },
  { id: 'invitation', name: 'Invitations', description: 'Invite people to a workspace by email with a one-time link' },
  { id: 'space', name: 'Space Management', description: 'Spaces, their members and permissions' },
  { id: 'group', name: 'Group Management', description: 'Groups of users, used to grant space roles' },
  { id: 'page', name: 'Page Management', description: 'Pages: read and write as Markdown, move, history, restore, trash, recover' },
  {
    id: 'template',
    name: 'Templates',
    description: 'Page templates: make one from Markdown or a page, start pages from it with {{date}}, {{author}} and {{title}} filled',
  },
  { id: 'comment', name: 'Comments', description: 'Comment threads on pages' },
  { id: 'notification', name: 'Notifications', description: 'Your mentions, replies, assignments and watched pages; watch and unwatch pages' },
  { id: 'attachment', name: 'Attachments', description: 'Files attached to pages: list, read text content, upload, delete' },
  { id: 'task', name: 'Task Management', description: 'Tasks, assignment, completion, labels and triage' },
  { id: 'project', name: 'Project Management', description: 'Projects that group tasks' },
  { id: 'goal', name: 'Goal Management', description: 'Goals by time horizon and the tasks linked to them' },
  { id: 'search', name: 'Search', description: 'Full-text search and autocomplete over pages and tasks' },
  { id: 'user', name: 'User Management', description: 'Users of a workspace and the caller' },
  { id: 'bug_report', name: 'Bug Reports', description: 'User-made and automatically captured bug reports' },
  { id: 'export', name: 'Import and Export', description: 'Whole spaces and page trees as zip files of Markdown or HTML' },
  { id: 'research', name: 'Research', description: 'Asynchronous research jobs that write a report' },
  { id: 'memory', name: 'Memory', description: 'Notes an agent stores and finds again' },
  { id: 'knowledge', name: 'Knowledge Search', description: 'Passages of pages and memories, by meaning' },
  { id: 'webhook', name: 'Webhooks', description: 'Signed HTTP deliveries of workspace events to outside endpoints' },
  { id: 'tool', name: 'Tool Discovery', description: 'Find the right tool' },
] as const;

export type CategoryId = (typeof CATEGORIES)[number]['id'];
