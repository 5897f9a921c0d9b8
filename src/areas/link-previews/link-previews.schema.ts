import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

export const LinkPreviewQuery = z.object({
  url: z
    .string()
    .min(1)
    .max(4096)
    .describe('The http(s) link to preview (at most 2,048 characters, no user name or password; anything else is a 422 naming why)'),
  workspaceId: Id.describe('A workspace the caller is a member of (any role)'),
});

export const LinkPreview = z.object({
  url: z.string().describe('The link as asked for'),
  host: z.string().describe('The host of the link: what a card shows when nothing else could be read'),
  title: z
    .string()
    .nullable()
    .describe('`og:title`, else `twitter:title`, else `<title>` (one line, at most 300 characters); null when the page could not be read'),
  description: z.string().nullable().describe('`og:description`, else `twitter:description`, else the `description` meta tag (at most 1,000 characters)'),
  siteName: z.string().nullable().describe('`og:site_name`, else the `application-name` meta tag'),
  iconUrl: z
    .string()
    .nullable()
    .describe('The page’s `<link rel="icon">` (or Apple touch icon) as an absolute http(s) address, else the site’s `/favicon.ico`'),
  reachable: z.boolean().describe('False when the page could not be fetched or was not HTML (a card then shows the host only)'),
});
export type LinkPreview = z.infer<typeof LinkPreview>;

export const LinkPreviewResult = envelope(LinkPreview);
