import { type Config, publicUrlOf } from '../../config.js';
import type { Db } from '../../db/index.js';
import { type MailMessage, mailerOf } from '../../mail/mailer.js';
import { notificationsRepo } from './notifications.repo.js';

/*
 * The email digest (issue 16): every NOTIFY_DIGEST_MS, each person with unread notifications not yet mailed, of kinds
 * they want by email, gets ONE message listing them; then they are stamped `emailed_at` and never mailed again. A burst
 * of edits makes one mail per period, not one per save. Nothing happens without SMTP_URL.
 */

type DigestRow = Awaited<ReturnType<typeof notificationsRepo.claimDigest>>[number];

const CLAIM_LIMIT = 1000;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const WATCH_VERBS: Record<string, string> = {
  'page.created': 'created',
  'page.updated': 'updated',
  'page.moved': 'moved',
  'page.trashed': 'moved to the trash',
  'page.restored': 'restored',
  'page.published': 'published',
  'comment.created': 'commented on',
  'comment.resolved': 'resolved a comment on',
};

/** One line of the digest: who did what, about which title. */
export function describeNotification(row: Pick<DigestRow, 'kind' | 'eventType' | 'actorName' | 'title'>): string {
  const who = oneLine(row.actorName ?? 'Someone');
  const title = `“${oneLine(row.title) || 'Untitled'}”`;
  switch (row.kind) {
    case 'mention':
      return `${who} mentioned you in ${title}`;
    case 'reply':
      return `${who} replied in a thread on ${title}`;
    case 'assigned':
      return `${who} assigned you ${title}`;
    case 'watch':
      return `${who} ${WATCH_VERBS[row.eventType] ?? 'changed'} ${title}`;
    default:
      return `${title}: ${row.eventType}`;
  }
}

function linkOf(base: string, row: DigestRow): string {
  const ws = `${base}/w/${encodeURIComponent(row.workspaceHostname)}`;
  if (row.pageId && row.spaceSlug) return `${ws}/s/${encodeURIComponent(row.spaceSlug)}/p/${encodeURIComponent(row.pageId)}`;
  if (row.subjectType === 'task') return `${ws}/tasks`;
  return ws;
}

/** The one message of one person's digest. */
export function digestMail(base: string, rows: DigestRow[]): MailMessage {
  const first = rows[0];
  const items = rows.map((row) => ({ line: `${describeNotification(row)} (${oneLine(row.workspaceName)})`, url: linkOf(base, row) }));
  const subject = rows.length === 1 ? describeNotification(first) : `${rows.length} new notifications on kb`;
  const text = [
    `Hello ${oneLine(first.recipientName)},`,
    '',
    rows.length === 1 ? 'Here is what happened on kb:' : `Here are ${rows.length} things that happened on kb:`,
    '',
    ...items.flatMap((i) => [`- ${i.line}`, `  ${i.url}`]),
    '',
    `All your notifications: ${base}/`,
    'Choose what you are told, and how, in your notification settings.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(oneLine(first.recipientName))},</p>`,
    '<ul>',
    ...items.map((i) => `<li><a href="${escapeHtml(i.url)}">${escapeHtml(i.line)}</a></li>`),
    '</ul>',
    '<p>Choose what you are told, and how, in your notification settings.</p>',
  ].join('\n');
  return { to: first.recipientEmail, subject, text, html };
}

/** Runs one digest: claims what waits, mails each person once; what could not be sent is given back for the next run. */
export async function sendDigests(db: Db, config: Config, now = new Date()): Promise<{ mailed: number; notifications: number; failed: number }> {
  const mailer = mailerOf(config);
  if (!mailer) return { mailed: 0, notifications: 0, failed: 0 };
  const rows = await notificationsRepo.claimDigest(db, now, CLAIM_LIMIT);
  const byUser = new Map<string, DigestRow[]>();
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  const base = publicUrlOf(config);
  let mailed = 0;
  let failed = 0;
  for (const own of byUser.values()) {
    try {
      await mailer.send(digestMail(base, own));
      mailed++;
    } catch {
      failed++;
      await notificationsRepo.releaseDigest(
        db,
        own.map((r) => r.id),
      );
    }
  }
  return { mailed, notifications: rows.length, failed };
}
