import type { Ctx } from '../../../context.js';
import { search } from '../../search/search.service.js';
import { researchRepo } from '../research.repo.js';
import { expansionTerms, words } from '../research.text.js';
import { errorText, type FoundDocument, type GatherContext, type SourceOutcome, stopReason } from './source.js';

const FIRST_HITS = 20;
const EXPANDED_HITS = 10;
const MAX_DOCUMENTS = 40;
/** Characters of one page or task read for passages. */
const MAX_TEXT = 100_000;

/** The topic as plain search words: no quotes or leading minus signs, which the search syntax would read as operators. */
export function plainQuery(text: string): string {
  return text
    .replace(/["“”]/g, ' ')
    .replace(/(^|\s)-+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/**
 * The workspace's pages and tasks that the job's creator can read (`ctx` acts as them): found through the search
 * service with the topic, then with terms expanded from the best first hits; their text is read for passages.
 * Earlier research reports are not sources (a report citing reports would only echo itself).
 */
export async function gatherDocs(ctx: Ctx, workspaceId: string, g: GatherContext): Promise<SourceOutcome> {
  const userId = ctx.actor!.userId;
  const queries: string[] = [];
  const order: { type: 'page' | 'task'; id: string }[] = [];
  const seen = new Set<string>();
  const run = async (query: string, limit: number) => {
    queries.push(query);
    const hits = await search(ctx, { query, workspaceId, limit });
    for (const h of hits) {
      const key = `${h.type}:${h.id}`;
      if (seen.has(key) || order.length >= MAX_DOCUMENTS) continue;
      seen.add(key);
      order.push({ type: h.type, id: h.id });
    }
    return hits.length;
  };
  const documents = new Map<string, FoundDocument>();
  const load = async (items: { type: 'page' | 'task'; id: string }[]) => {
    const before = documents.size;
    const pages = await researchRepo.readablePageTexts(
      ctx.db,
      workspaceId,
      userId,
      items.filter((i) => i.type === 'page').map((i) => i.id),
    );
    for (const p of pages)
      documents.set(`page:${p.id}`, {
        key: `page:${p.id}`,
        kind: 'page',
        title: p.title,
        url: `/api/v1/pages/${p.id}`,
        text: p.textContent.slice(0, MAX_TEXT),
      });
    const tasks = await researchRepo.readableTaskTexts(
      ctx.db,
      workspaceId,
      userId,
      items.filter((i) => i.type === 'task').map((i) => i.id),
    );
    for (const t of tasks)
      documents.set(`task:${t.id}`, {
        key: `task:${t.id}`,
        kind: 'task',
        title: t.title,
        url: `/api/v1/tasks/${t.id}`,
        text: `${t.title}\n\n${t.description ?? ''}`.slice(0, MAX_TEXT),
      });
    if (documents.size > before) g.found(documents.size - before);
  };
  const outcome = (status: 'searched' | 'partial', note = '') => {
    const docs = order.map((o) => documents.get(`${o.type}:${o.id}`)).filter((d): d is FoundDocument => !!d);
    const detail =
      `${queries.length} ${queries.length === 1 ? 'query' : 'queries'} (${queries.map((q) => `"${q}"`).join(', ')}), ` +
      `${docs.length} pages and tasks read${note ? `; ${note}` : ''}`;
    return { documents: docs, coverage: { source: 'docs' as const, status, detail } };
  };

  try {
    const topic = plainQuery(g.topic);
    let firstHits = await run(topic, FIRST_HITS);
    // A long topic may match nothing as a whole: try its main words one by one.
    if (!firstHits)
      for (const w of [...new Set(words(topic).map((x) => x.surface))].slice(0, 4)) {
        if (g.signal.aborted) return outcome('partial', stopReason(g.signal));
        firstHits += await run(w, EXPANDED_HITS);
      }
    await load(order);
    if (g.signal.aborted) return outcome('partial', stopReason(g.signal));
    const best = order.slice(0, 3).map((o) => documents.get(`${o.type}:${o.id}`)?.text ?? '');
    const expansions = expansionTerms(g.topic, best);
    const before = order.length;
    for (const term of expansions) {
      if (g.signal.aborted) break;
      await run(plainQuery(`${term} ${topic}`), EXPANDED_HITS);
    }
    await load(order.slice(before));
    if (g.signal.aborted) return outcome('partial', stopReason(g.signal));
    return outcome('searched', expansions.length ? `expanded with ${expansions.map((t) => `"${t}"`).join(', ')}` : '');
  } catch (err) {
    if (!order.length) return { documents: [], coverage: { source: 'docs', status: 'failed', detail: `search failed: ${errorText(err)}` } };
    return outcome('partial', `search failed part way: ${errorText(err)}`);
  }
}
