import type { AnyExtension } from '@tiptap/core';
import { api, data } from '../../../api/client';
import { LIST_PLACEMENT, renderList, type SuggestionItem } from './SuggestionList';

interface Person {
  id: string;
  name: string;
  email?: string;
}
interface Suggestion {
  text: string;
  type: 'keyword' | 'page';
  id?: string;
}

/** Mention ids: a person's user id as is; a page as `page:<id>` (the mention node has one id attribute for both). */
export const pageMentionId = (pageId: string) => `page:${pageId}`;

async function mentionables(workspaceId: string, query: string): Promise<SuggestionItem[]> {
  const q = query.trim();
  const [people, pages] = await Promise.all([
    data(api.GET('/api/v1/users', { params: { query: { workspaceId, query: q || undefined, limit: 5 } } })).catch(() => []),
    q ? data(api.GET('/api/v1/search/suggest', { params: { query: { workspaceId, query: q, limit: 5 } } })).catch(() => []) : Promise.resolve([]),
  ]);
  return [
    ...(people as Person[]).map((p) => ({ key: p.id, label: p.name, hint: 'Person' })),
    ...(pages as Suggestion[]).filter((s) => s.type === 'page' && s.id).map((s) => ({ key: pageMentionId(s.id as string), label: s.text, hint: 'Page' })),
  ];
}

/**
 * The shared `mention` extension with a suggestion UI: "@" lists people of the workspace and matching pages. Only
 * options change (`configure`), so the node and its attribute checks stay the shared schema's.
 */
export function withMentionSuggestions(ext: AnyExtension, workspaceId: string): AnyExtension {
  return ext.configure({
    suggestion: {
      char: '@',
      items: ({ query }: { query: string }) => mentionables(workspaceId, query),
      command: ({ editor, range, props }: { editor: import('@tiptap/core').Editor; range: import('@tiptap/core').Range; props: SuggestionItem }) => {
        editor
          .chain()
          .focus()
          .insertContentAt(range, [
            { type: 'mention', attrs: { id: props.key, label: props.label, mentionSuggestionChar: '@' } },
            { type: 'text', text: ' ' },
          ])
          .run();
      },
      render: renderList('Mention', 'Nobody and no page matches'),
      floatingUi: LIST_PLACEMENT,
    },
  });
}
