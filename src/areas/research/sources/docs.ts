import type { Ctx } from '../../../context.js';
import { search } from '../../search/search.service.js';
import { quotableSpaceIds, unrestrictedPageSql } from '../research.policy.js';
import { type PageFilter, researchRepo, type SpaceIds } from '../research.repo.js';
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

type DocRef = { type: 'page' | 'task'; id: string };

/**
 * One docs gathering: the queries run, the hits in order (at most MAX_DOCUMENTS), and the documents read. Hits
 * outside the quotable spaces are dropped when their text is loaded, so they neither count nor feed the expansion.
 */
class DocsGathering {
  readonly queries: string[] = [];
  private order: DocRef[] = [];
  private seen = new Set<string>();
  private loaded = 0;
  readonly documents = new Map<string, FoundDocument>();

  constructor(
    private readonly ctx: Ctx,
    private readonly workspaceId: string,
    private readonly spaces: SpaceIds,
    private readonly g: GatherContext,
  ) {}

  /** Pages under no restriction (see research.policy.ts). */
  private readonly quotablePage: PageFilter = (ref) => unrestrictedPageSql(ref, this.workspaceId);

  /** Runs one search as the creator; returns how many hits it had. */
  async search(query: string, limit: number): Promise<number> {
    this.queries.push(query);
    const hits = await search(this.ctx, { query, workspaceId: this.workspaceId, limit });
    for (const h of hits) {
      const key = `${h.type}:${h.id}`;
      if (this.seen.has(key) || this.order.length >= MAX_DOCUMENTS) continue;
      this.seen.add(key);
      this.order.push({ type: h.type, id: h.id });
    }
    return hits.length;
  }

  /** Reads the text of the hits not read yet, from the quotable spaces only. */
  async load(): Promise<void> {
    const items = this.order.slice(this.loaded);
    const before = this.documents.size;
    const idsOf = (type: DocRef['type']) => items.filter((i) => i.type === type).map((i) => i.id);
    const { db } = this.ctx;
    for (const p of await researchRepo.pageTexts(db, this.workspaceId, this.spaces, this.quotablePage, idsOf('page')))
      this.add({ key: `page:${p.id}`, kind: 'page', title: p.title, url: `/api/v1/pages/${p.id}`, text: p.textContent });
    for (const t of await researchRepo.taskTexts(db, this.workspaceId, this.spaces, idsOf('task')))
      this.add({ key: `task:${t.id}`, kind: 'task', title: t.title, url: `/api/v1/tasks/${t.id}`, text: `${t.title}\n\n${t.description ?? ''}` });
    // Hits that could not be read here are forgotten, so the next searches may fill their places.
    this.order = this.order.filter((o) => this.documents.has(`${o.type}:${o.id}`));
    this.loaded = this.order.length;
    if (this.documents.size > before) this.g.found(this.documents.size - before);
  }

  private add(doc: FoundDocument) {
    this.documents.set(doc.key, { ...doc, text: doc.text.slice(0, MAX_TEXT) });
  }

  /** The documents read, in the order they were found. */
  found(): FoundDocument[] {
    return this.order.map((o) => this.documents.get(`${o.type}:${o.id}`)).filter((d): d is FoundDocument => !!d);
  }

  outcome(status: 'searched' | 'partial', note = ''): SourceOutcome {
    const docs = this.found();
    const q = this.queries;
    const detail = `${q.length} ${q.length === 1 ? 'query' : 'queries'} (${q.map((x) => `"${x}"`).join(', ')}), ${docs.length} pages and tasks read${note ? `; ${note}` : ''}`;
    return { documents: docs, coverage: { source: 'docs', status, detail } };
  }
}

/** The first search: the topic, or (when the whole finds nothing) its main words one by one. */
async function searchTopic(run: DocsGathering, topic: string, signal: AbortSignal): Promise<void> {
  if (await run.search(topic, FIRST_HITS)) return;
  for (const w of [...new Set(words(topic).map((x) => x.surface))].slice(0, 4)) {
    if (signal.aborted) return;
    await run.search(w, EXPANDED_HITS);
  }
}

/**
 * The workspace's pages and tasks that the job's creator can read (`ctx` acts as them) and that every reader of
 * the report's space can read too (`quotableSpaceIds`; never a restricted page): found through the search service with the topic, then
 * with terms expanded from the best first hits; their text is read for passages. Earlier research reports are
 * not sources (a report citing reports would only echo itself).
 */
export async function gatherDocs(ctx: Ctx, workspaceId: string, targetSpaceId: string, g: GatherContext): Promise<SourceOutcome> {
  const run = new DocsGathering(ctx, workspaceId, quotableSpaceIds(ctx.db, workspaceId, ctx.actor!.userId, targetSpaceId), g);
  try {
    const topic = plainQuery(g.topic);
    await searchTopic(run, topic, g.signal);
    await run.load();
    if (g.signal.aborted) return run.outcome('partial', stopReason(g.signal));
    const expansions = expansionTerms(
      g.topic,
      run
        .found()
        .slice(0, 3)
        .map((d) => d.text),
    );
    for (const term of expansions) {
      if (g.signal.aborted) break;
      await run.search(plainQuery(`${term} ${topic}`), EXPANDED_HITS);
    }
    await run.load();
    if (g.signal.aborted) return run.outcome('partial', stopReason(g.signal));
    return run.outcome('searched', expansions.length ? `expanded with ${expansions.map((t) => `"${t}"`).join(', ')}` : '');
  } catch (err) {
    if (!run.found().length) return { documents: [], coverage: { source: 'docs', status: 'failed', detail: `search failed: ${errorText(err)}` } };
    return run.outcome('partial', `search failed part way: ${errorText(err)}`);
  }
}
