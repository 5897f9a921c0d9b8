import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { EditSession, loadLiveState, storeLiveDocument } from '../../src/areas/collab/collab.store.js';
import { mentionIdsInDocument, newlyMentioned } from '../../src/areas/events/mentions.js';
import type { Ctx } from '../../src/context.js';
import { replaceLiveContent } from '../../src/editor/ydoc.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';
import { docMentioning, eventsOf, mentionText } from './helpers.js';

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  spaceId = (await createSpace(t, ws.admin, ws.workspace.id)).id;
});
afterAll(() => t.close());

const people = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `person-${from + i}`);

async function pageWith(content: object) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: ws.editor.token,
    body: { workspaceId: ws.workspace.id, spaceId, title: 'Team', content },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

describe('the mention diff', () => {
  it('finds mention nodes anywhere in a document, once each, and mention links in Markdown', () => {
    const doc = { type: 'doc', content: [docMentioning(['a', 'b']).content[0], { type: 'bulletList', content: [docMentioning(['c', 'a']).content[0]] }] };
    expect(mentionIdsInDocument(doc)).toEqual(['a', 'b', 'c']);
    expect(newlyMentioned(null, `hi ${mentionText('x y')} and ${mentionText('z')} ${mentionText('z')}`)).toEqual(['x y', 'z']);
    expect(newlyMentioned(`${mentionText('z')}`, `${mentionText('z')} ${mentionText('w')}`)).toEqual(['w']);
    expect(newlyMentioned(docMentioning(['a', 'b']), docMentioning(['b']))).toEqual([]);
  });

  it('an edit that adds 1 mention to a page already mentioning 9 people carries only the new one', async () => {
    const pageId = await pageWith(docMentioning(people(9)));
    const { events } = await eventsOf(t, () =>
      t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: ws.editor.token, body: { content: docMentioning(people(10), 'More') } }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'page.updated', pageId, data: { mentionedUserIds: ['person-9'] } });
  });

  it('a Markdown edit is compared the same way', async () => {
    const pageId = await pageWith(docMentioning(['person-1']));
    const markdown = `${mentionText('person-1', 'One')} ${mentionText('person-2', 'Two')}`;
    const { events } = await eventsOf(t, () => t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: ws.editor.token, body: { markdown } }));
    expect(events.map((e) => e.data.mentionedUserIds)).toEqual([['person-2']]);
  });
});

describe('co-editing saves', () => {
  const ctx = (): Ctx => ({
    db: t.database.db,
    actor: null,
    log: pino({ level: 'silent' }) as never,
    now: () => new Date(),
    env: { config: t.config } as never,
  });

  it('make one event per history version, not one per save, and one for a save that newly mentions someone', async () => {
    const pageId = await pageWith(docMentioning(['person-1'], 'Start'));
    const doc = new Y.Doc();
    Y.applyUpdate(doc, await loadLiveState(ctx(), pageId));
    const session = new EditSession();
    const save = async (content: object) => {
      replaceLiveContent(doc, content as never);
      session.edited(ws.editor.id);
      return (await eventsOf(t, () => storeLiveDocument(ctx(), pageId, doc, session))).events;
    };

    const first = await save(docMentioning(['person-1'], 'Start typing'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'page.updated', actorId: ws.editor.id, pageId, spaceId, data: { newVersion: true, mentionedUserIds: [] } });

    for (let i = 0; i < 5; i++) expect(await save(docMentioning(['person-1'], `Start typing ${'more '.repeat(i + 1)}`))).toEqual([]);

    const mention = await save(docMentioning(['person-1', 'person-2'], 'Start typing, and you'));
    expect(mention).toHaveLength(1);
    expect(mention[0]).toMatchObject({ type: 'page.updated', data: { newVersion: false, mentionedUserIds: ['person-2'] } });

    expect(await save(docMentioning(['person-1', 'person-2'], 'Start typing, and you, again'))).toEqual([]);
    const page = await t.database.db.selectFrom('pages').select('version').where('id', '=', pageId).executeTakeFirstOrThrow();
    expect(page.version).toBe(1 + 8); // every save with a change is a version bump; the events followed the history entries
  });
});
