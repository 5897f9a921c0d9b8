import { z } from 'zod';
import { envelope, Id } from '../../../schema.js';

/** At most this many pages per lookup (a page's mentions are read in batches of it). */
export const MAX_TITLE_IDS = 100;

/** `ids=a&ids=b` and `ids=a,b` alike; duplicates count once. */
const PageIds = z
  .union([z.string().max(MAX_TITLE_IDS * 201), z.array(z.string().max(MAX_TITLE_IDS * 201)).max(MAX_TITLE_IDS)])
  .transform((v) => [
    ...new Set(
      (Array.isArray(v) ? v : [v])
        .flatMap((x) => x.split(','))
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(Id).min(1, 'must name at least one page').max(MAX_TITLE_IDS, `must name at most ${MAX_TITLE_IDS} pages`))
  .describe(`The pages (ids): \`ids=a&ids=b\` or \`ids=a,b\`, at most ${MAX_TITLE_IDS}`);

export const PageTitlesQuery = z.object({ workspaceId: Id, ids: PageIds });

export const PageTitle = z.object({
  id: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  slug: z.string(),
  spaceId: z.string(),
});
export const PageTitlesResult = envelope(z.array(PageTitle));
