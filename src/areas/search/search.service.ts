import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { type HybridSearch, hybridApplies, hybridRank, hybridSearch } from './search.hybrid.js';
import { parseQuery } from './search.parse.js';
import { buildPlan, keepRarest } from './search.plan.js';
import { presentResult, type SearchResult } from './search.present.js';
import { type DocType, type RankedRow, type SearchScope, searchRepo, withGenericPlans } from './search.repo.js';

export interface SearchInput {
  query: string;
  workspaceId: string;
  spaceId?: string;
  types?: DocType[];
  limit: number;
}

/** Ranked pages and tasks the caller may read. Non-members get 403; an invisible or unknown space 404. */
export async function search(ctx: Ctx, input: SearchInput): Promise<SearchResult[]> {
  const actor = requireActor(ctx);
  if (input.spaceId) await requireSpaceRole(ctx, input.workspaceId, input.spaceId, 'viewer');
  else await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const types: DocType[] = input.types?.length ? [...new Set(input.types)] : ['page', 'task'];
  const scope = { workspaceId: input.workspaceId, userId: actor.userId, spaceId: input.spaceId, types };
  const rows = await rankedSearch(ctx.db, scope, input.query, input.limit, hybridSearch(ctx.env.config, ctx.log));
  return rows.map(presentResult);
}

/**
 * The ranking itself, without the access check (the scope carries the user; SQL filters by what they may read). With
 * `hybrid`, free-text queries are also ranked by meaning and the two rankings fused (search.hybrid.ts).
 */
export async function rankedSearch(db: Db, scope: SearchScope, query: string, limit: number, hybrid?: HybridSearch): Promise<RankedRow[]> {
  const parsed = parseQuery(query);
  if (!parsed.free && !parsed.phrases.length) return [];
  const analysis = await searchRepo.analyse(db, parsed.free, parsed.prefix, parsed.phrases, parsed.excluded);
  const plan = buildPlan(parsed, analysis);
  // Only stop words (or nothing searchable): nothing can match, since stop words are not indexed.
  if (!plan.terms.length) return [];
  // keepRarest keeps at least two terms of two or more: whether hybrid applies is known before the statistics.
  if (hybrid && hybridApplies(plan, scope)) {
    const ranked = keepRarest(plan, await searchRepo.stats(db, scope, plan.terms));
    return hybridRank(db, scope, ranked.plan, ranked.stats, query, limit, hybrid);
  }
  return withGenericPlans(db, async (conn) => {
    const ranked = keepRarest(plan, await searchRepo.stats(conn, scope, plan.terms));
    return searchRepo.rank(conn, scope, ranked.plan, ranked.stats, limit);
  });
}

export interface SuggestInput {
  query: string;
  workspaceId: string;
  limit: number;
}

export interface SuggestionOut {
  text: string;
  type: 'keyword' | 'page';
  id?: string;
  icon?: string | null;
}

/**
 * Completions of the last typed word (`keyword`, from the vocabulary of documents the caller can read) and page
 * titles matching the typed words (`page`). Keywords first, up to half the limit; pages fill the rest.
 */
export async function suggest(ctx: Ctx, input: SuggestInput): Promise<SuggestionOut[]> {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const words = (
    input.query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(-5)
    .map((w) => w.slice(0, 40));
  const last = words.at(-1);
  if (!last || last.length < 2) return [];
  const scope: SearchScope = { workspaceId: input.workspaceId, userId: actor.userId, types: ['page', 'task'] };
  const keywords = await searchRepo.suggestKeywords(ctx.db, scope, last, input.limit);
  const pages = await withGenericPlans(ctx.db, (conn) => searchRepo.suggestPages(conn, scope, words, input.limit));
  const kwCount = Math.min(keywords.length, Math.max(Math.ceil(input.limit / 2), input.limit - pages.length));
  const out: SuggestionOut[] = keywords.slice(0, kwCount).map((text) => ({ text, type: 'keyword' }));
  for (const p of pages.slice(0, input.limit - out.length)) out.push({ text: p.title, type: 'page', id: p.id, icon: p.icon });
  return out;
}
