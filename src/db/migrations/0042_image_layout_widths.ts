import { type Kysely, sql } from 'kysely';
import * as Y from 'yjs';
import { COLLAB_FIELD } from '../../editor/ydoc.js';
import { isLayoutWidth, withoutPixelWidths } from '../../editor/images.js';

/**
 * A block image's `width` is a percentage now (10–100, src/editor/images.ts); before, HTML imports kept an `<img
 * width="500">` in pixels there. Such widths are cleared in pages, their history and their live documents (the Yjs
 * state the editor opens), so the schema's check never drops the image: it shows at its natural size, as it did.
 */

const HAS_IMAGE = `%"type": "image"%`;

/** The Yjs state with each pixel width on an image element removed, or null when it holds none. */
function ydocWithoutPixelWidths(state: Uint8Array): Uint8Array | null {
  const doc = new Y.Doc({ gc: true });
  Y.applyUpdate(doc, state);
  const stale: Y.XmlElement[] = [];
  for (const el of doc.getXmlFragment(COLLAB_FIELD).createTreeWalker((n) => n instanceof Y.XmlElement && n.nodeName === 'image'))
    if (!isLayoutWidth((el as Y.XmlElement).getAttribute('width') ?? null)) stale.push(el as Y.XmlElement);
  if (!stale.length) return null;
  doc.transact(() => {
    for (const el of stale) el.removeAttribute('width');
  });
  return Y.encodeStateAsUpdate(doc);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pages = await sql<{ id: string; content: unknown; ydoc: Uint8Array | null }>`
    select id, content, ydoc from pages where content::text like ${HAS_IMAGE}`.execute(db);
  for (const row of pages.rows) {
    const content = withoutPixelWidths(row.content);
    const ydoc = row.ydoc ? ydocWithoutPixelWidths(row.ydoc) : null;
    if (content !== row.content) await sql`update pages set content = ${JSON.stringify(content)}::jsonb where id = ${row.id}`.execute(db);
    if (ydoc) await sql`update pages set ydoc = ${ydoc} where id = ${row.id}`.execute(db);
  }
  const history = await sql<{ id: string; content: unknown }>`
    select id, content from page_history where content is not null and content::text like ${HAS_IMAGE}`.execute(db);
  for (const row of history.rows) {
    const content = withoutPixelWidths(row.content);
    if (content !== row.content) await sql`update page_history set content = ${JSON.stringify(content)}::jsonb where id = ${row.id}`.execute(db);
  }
}

export async function down(): Promise<void> {
  // Pixel widths are not restored: a picture at its natural size is what they showed.
}
