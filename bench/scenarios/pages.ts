import { generateNKeysBetween } from 'fractional-indexing';
import { PAGE_COLUMNS } from '../../src/areas/pages/pages.repo.js';
import { vacuumAndAnalyze } from '../../src/db/upkeep.js';
import { newId } from '../../src/ids.js';
import { measure } from '../lib/measure.js';
import { startBare } from '../lib/target.js';
import type { Scenario } from './types.js';

/** Pages in the big space (`BENCH_PAGES` for a quick run). */
const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);

/** A document of about `bytes` of JSON: headings, paragraphs with marks, a list. */
function bigDocument(bytes: number) {
  const sentence = 'The quick brown fox jumps over the lazy dog while the team reviews the quarterly plan. ';
  const content: object[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block =
      i % 10 === 0
        ? { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: `Section ${i / 10 + 1}` }] }
        : {
            type: 'paragraph',
            content: [
              { type: 'text', text: sentence.repeat(3) },
              { type: 'text', text: 'important', marks: [{ type: 'bold' }] },
              { type: 'text', text: ` ${sentence}` },
            ],
          };
    content.push(block);
    size += JSON.stringify(block).length;
  }
  return { type: 'doc', content };
}

/**
 * Issue 3's pages benchmark: (a) the first page of the children of a space holding 10,000 pages (all at its root:
 * the largest sibling set, so the ordered list and its total count see every row) and (b) one page of ~100 KB
 * content, each beside (c) a bare Fastify route selecting that page's row by primary key on the same database (the
 * columns the service reads, no more) and (d) a bare hello route.
 */
export const pagesScenario: Scenario = {
  name: 'pages',
  description: `list the children of a ${PAGES.toLocaleString('en-US')}-page space; read one 100 KB page; vs a bare primary-key select and a bare hello route`,
  async run(target, load) {
    const signup = await target.call('POST', '/api/v1/auth/signup', undefined, { email: 'bench-pages@example.com', name: 'Bench', password: 'bench-password' });
    const jwt: string = signup.data.token;
    const key: string = (await target.call('POST', '/api/v1/api-keys', jwt, { name: 'bench' })).data.key;
    const workspaceId: string = (await target.call('POST', '/api/v1/workspaces', jwt, { name: 'Bench', hostname: 'bench-pages' })).data.id;
    const spaceId: string = (await target.call('POST', '/api/v1/spaces', jwt, { workspaceId, name: 'Big space' })).data.id;

    // The big page through the API (validated, with its history entry), then the rest straight into the table.
    const big = bigDocument(100 * 1024);
    const bigPage = (await target.call('POST', '/api/v1/pages', jwt, { workspaceId, spaceId, title: 'Big page', content: big })).data;
    const userId: string = signup.data.user.id;
    const db = target.database.db;
    const positions = generateNKeysBetween(bigPage.position, null, PAGES - 1);
    const small = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A short page.' }] }] });
    for (let i = 0; i < positions.length; i += 1000) {
      const now = new Date();
      await db
        .insertInto('pages')
        .values(
          positions.slice(i, i + 1000).map((position, j) => ({
            id: newId(),
            workspaceId,
            spaceId,
            parentId: null,
            title: `Page ${i + j + 2}`,
            slug: `page-${i + j + 2}`,
            icon: null,
            content: small,
            textContent: 'A short page.',
            position,
            version: 1,
            createdBy: userId,
            updatedBy: userId,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
    }
    // A server's upkeep job (on PGlite; autovacuum on a server) analyzes the table within minutes of such a load.
    await vacuumAndAnalyze(db);
    const check = await target.call('GET', `/api/v1/pages?workspaceId=${workspaceId}&spaceId=${spaceId}&parentId=null&limit=1`, jwt);
    if (check.meta.total !== PAGES) throw new Error(`seeded ${check.meta.total} pages, expected ${PAGES}`);
    const read = await target.call('GET', `/api/v1/pages/${bigPage.id}`, jwt);
    const bytes = Buffer.byteLength(JSON.stringify(read.data.content));

    const bare = await startBare((app) => {
      app.get('/hello', async () => ({ hello: 'world' }));
      // A floor does no more work than the service: the very columns the page read selects (PAGE_COLUMNS and the
      // content), without its access checks, child count or presenter.
      app.get<{ Params: { id: string } }>('/pages/:id', async (req, reply) => {
        const row = await db
          .selectFrom('pages as p')
          .select([...PAGE_COLUMNS, 'p.content'])
          .where('p.id', '=', req.params.id)
          .executeTakeFirst();
        if (!row) return reply.code(404).send({ error: 'not found' });
        return { data: row };
      });
    });
    const auth = { authorization: `Bearer ${key}` };
    try {
      const list = await measure(
        {
          label: `(a) GET /api/v1/pages children of a ${PAGES}-page space, limit 20`,
          url: `${target.appUrl}/api/v1/pages?workspaceId=${workspaceId}&spaceId=${spaceId}&parentId=null`,
          headers: auth,
        },
        load,
      );
      const page = await measure(
        { label: `(b) GET /api/v1/pages/:id, ${Math.round(bytes / 1024)} KB content`, url: `${target.appUrl}/api/v1/pages/${bigPage.id}`, headers: auth },
        load,
      );
      const pk = await measure({ label: '(c) bare route, primary-key select of that page', url: `${bare.url}/pages/${bigPage.id}` }, load);
      const hello = await measure({ label: '(d) bare hello route', url: `${bare.url}/hello` }, load);
      return {
        measurements: [list, page, pk, hello],
        ratios: [
          { label: 'a/d (children list vs hello)', value: list.reqPerSec / hello.reqPerSec },
          { label: 'b/c (100 KB page read vs bare primary-key select)', value: page.reqPerSec / pk.reqPerSec },
          { label: 'b/d (100 KB page read vs hello)', value: page.reqPerSec / hello.reqPerSec },
        ],
      };
    } finally {
      await bare.close();
    }
  },
};
