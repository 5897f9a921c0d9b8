import type { ServiceEnv } from '../../context.js';
import type { LinkPreview } from './link-previews.schema.js';

/** How long a preview is reused: a page read (hours), a page that could not be read (minutes: it may be back soon). */
export const PREVIEW_TTL_MS = 6 * 3600_000;
export const FAILED_PREVIEW_TTL_MS = 5 * 60_000;
/** Previews kept at most (the least recently used leave first). */
export const PREVIEW_CACHE_SIZE = 1000;

/**
 * A bounded, short-lived cache of previews in process memory (the architecture's rule for caches: bounded and
 * short-lived, so several instances each keeping their own stay correct; a preview is public information about a
 * public page, the same for every workspace). One per running service (keyed by its ServiceEnv), so tests with
 * other address rules never share one.
 */
export class PreviewCache {
  private readonly entries = new Map<string, { preview: LinkPreview; expiresAt: number }>();
  constructor(private readonly max = PREVIEW_CACHE_SIZE) {}

  get(url: string, now: number): LinkPreview | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    this.entries.delete(url);
    if (entry.expiresAt <= now) return null;
    this.entries.set(url, entry); // most recently used last
    return entry.preview;
  }

  set(url: string, preview: LinkPreview, ttlMs: number, now: number): void {
    this.entries.delete(url);
    this.entries.set(url, { preview, expiresAt: now + ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

const caches = new WeakMap<ServiceEnv, PreviewCache>();

export function previewCacheOf(env: ServiceEnv): PreviewCache {
  const known = caches.get(env);
  if (known) return known;
  const cache = new PreviewCache();
  caches.set(env, cache);
  return cache;
}
