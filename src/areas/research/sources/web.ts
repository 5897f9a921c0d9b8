import { htmlToTextOffThread } from '../../../workers/offload.js';
import { type AddressRule, addressRuleOf, BlockedAddressError, guardedGet } from '../research.outbound.js';
import { errorText, type FoundDocument, type GatherContext, type SourceOutcome, stopReason } from './source.js';

/** One hit of a web search. */
export interface WebHit {
  url: string;
  title: string;
  content: string;
}

/** A web search service: the one seam between research and whatever searches the web. */
export interface WebSearchProvider {
  readonly name: string;
  search(query: string, signal: AbortSignal): Promise<WebHit[]>;
}

const MAX_RESULTS = 8;
const PARALLEL = 3;
const MAX_TEXT = 100_000;

/**
 * A SearXNG-compatible JSON API: `GET <base>/search?q=…&format=json` → `{ results: [{ url, title, content }] }`.
 * The base is the operator's setting (WEB_SEARCH_URL), so it may be on the local network; the pages it points
 * to are fetched under the address rules.
 */
export class SearxngProvider implements WebSearchProvider {
  readonly name = 'SearXNG';
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly maxBytes: number,
  ) {}

  async search(query: string, signal: AbortSignal): Promise<WebHit[]> {
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)]), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`search service answered ${res.status}`);
    const text = await res.text();
    if (text.length > this.maxBytes) throw new Error('search service answer too large');
    const body = JSON.parse(text) as { results?: unknown };
    if (!Array.isArray(body.results)) throw new Error('search service answer has no results array');
    return body.results
      .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && typeof (r as { url?: unknown }).url === 'string')
      .map((r) => ({
        url: String(r.url).slice(0, 2048),
        title: typeof r.title === 'string' ? r.title.slice(0, 500) : '',
        content: typeof r.content === 'string' ? r.content.slice(0, 5000) : '',
      }));
  }
}

export function webProviderOf(config: GatherContext['config']): WebSearchProvider | null {
  return config.WEB_SEARCH_URL ? new SearxngProvider(config.WEB_SEARCH_URL, config.RESEARCH_FETCH_TIMEOUT_MS, config.RESEARCH_FETCH_MAX_BYTES) : null;
}

type ReadResult = { document: FoundDocument; cut: boolean } | { skip: string };

/** Fetches one result page under the address rules and the size and time caps; its text, or why it was skipped. */
async function readResult(hit: WebHit, g: GatherContext, addresses: AddressRule): Promise<ReadResult> {
  const page = await guardedGet(hit.url, {
    addresses,
    timeoutMs: g.config.RESEARCH_FETCH_TIMEOUT_MS,
    maxBytes: g.config.RESEARCH_FETCH_MAX_BYTES,
    signal: g.signal,
  });
  if (page.status >= 400) return { skip: `${hit.url} (HTTP ${page.status})` };
  const type = page.contentType.toLowerCase();
  let title = hit.title;
  let text: string;
  if (type.includes('html') || (!type && /^\s*</.test(page.body))) {
    const parsed = await htmlToTextOffThread(g.config, page.body, g.signal);
    title = title || parsed.title;
    text = parsed.text;
  } else if (type.startsWith('text/') || type.includes('json') || type.includes('markdown')) text = page.body;
  else return { skip: `${hit.url} (not text: ${type.split(';')[0]})` };
  return { document: { key: `web:${hit.url}`, kind: 'web', title: title || hit.url, url: hit.url, text: text.slice(0, MAX_TEXT) }, cut: page.truncated };
}

/** Searches the web for the topic and reads the result pages (timeouts, size caps, public addresses only). */
export async function gatherWeb(g: GatherContext, provider = webProviderOf(g.config)): Promise<SourceOutcome> {
  if (!provider) return { documents: [], coverage: { source: 'web', status: 'skipped', detail: 'no web search service is configured (WEB_SEARCH_URL)' } };
  let hits: WebHit[];
  try {
    hits = await provider.search(g.topic, g.signal);
  } catch (err) {
    if (g.signal.aborted) return { documents: [], coverage: { source: 'web', status: 'partial', detail: stopReason(g.signal) } };
    return { documents: [], coverage: { source: 'web', status: 'failed', detail: `the web search failed: ${errorText(err)}` } };
  }
  const seen = new Set<string>();
  const queue = hits.filter((h) => /^https?:\/\//i.test(h.url) && !seen.has(h.url) && seen.add(h.url)).slice(0, MAX_RESULTS);
  const documents: (FoundDocument | null)[] = new Array(queue.length).fill(null);
  const skipped: string[] = [];
  const cut: string[] = [];
  const addresses = addressRuleOf(g.config);
  let next = 0;
  const worker = async () => {
    while (next < queue.length && !g.signal.aborted) {
      const i = next++;
      const hit = queue[i];
      try {
        const read = await readResult(hit, g, addresses);
        if ('skip' in read) {
          skipped.push(read.skip);
          continue;
        }
        if (read.cut) cut.push(`${hit.url} (cut at ${g.config.RESEARCH_FETCH_MAX_BYTES} bytes)`);
        documents[i] = read.document;
        g.found(1);
      } catch (err) {
        if (g.signal.aborted) break;
        skipped.push(err instanceof BlockedAddressError ? `${hit.url} (refused: a loopback or private address)` : `${hit.url} (${errorText(err)})`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  const docs = documents.filter((d): d is FoundDocument => !!d);
  const parts = [`"${g.topic}" on ${provider.name}: ${hits.length} results, ${docs.length} pages read`];
  if (skipped.length) parts.push(`skipped ${skipped.length}: ${skipped.slice(0, 10).join('; ')}`);
  if (cut.length) parts.push(`read in part: ${cut.slice(0, 10).join('; ')}`);
  if (g.signal.aborted) parts.push(stopReason(g.signal));
  return { documents: docs, coverage: { source: 'web', status: g.signal.aborted ? 'partial' : 'searched', detail: parts.join('; ') } };
}
