import type { AppNotification } from './notifications.queries';

/** How a change to a watched page or space reads, by event type. */
const WATCH_WORDS: Record<string, (actor: string, title: string) => string> = {
  'page.created': (a, t) => `${a} created ${t}`,
  'page.updated': (_a, t) => `${t} was updated`,
  'page.moved': (_a, t) => `${t} was moved`,
  'page.trashed': (_a, t) => `${t} was moved to the trash`,
  'page.restored': (_a, t) => `${t} was restored`,
  'page.published': (_a, t) => `${t} was published`,
  'comment.created': (a, t) => `${a} commented on ${t}`,
  'comment.resolved': (a, t) => `${a} resolved a comment on ${t}`,
};

export interface NotificationSentence {
  /** The words before and after the subject's title, which the row shows in bold. */
  before: string;
  title: string;
  after: string;
}

/** "Ana mentioned you in Onboarding", "You were assigned Fix login", "Onboarding was updated": one line per notification. */
export function sentenceOf(n: AppNotification): NotificationSentence {
  const actor = n.actor?.name ?? 'Someone';
  const title = n.subject.title?.trim() || 'Untitled';
  const marker = '\u0000';
  let text: string;
  switch (n.kind) {
    case 'mention':
      text = `${actor} mentioned you in ${marker}`;
      break;
    case 'reply':
      text = `${actor} replied in ${marker}`;
      break;
    case 'assigned':
      text = `You were assigned ${marker}`;
      break;
    case 'webhook_disabled':
      text = `A webhook was turned off after repeated failures: ${marker}`;
      break;
    default:
      text = (WATCH_WORDS[n.eventType] ?? ((_a: string, t: string) => `${t} changed`))(actor, marker);
  }
  const [before, after = ''] = text.split(marker);
  return { before, title, after };
}

/** The sentence as plain text (an accessible name, a tooltip). */
export function plainSentence(n: AppNotification): string {
  const s = sentenceOf(n);
  return `${s.before}${s.title}${s.after}`;
}
