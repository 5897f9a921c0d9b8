import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

export type NotificationKind = 'mention' | 'reply' | 'assigned' | 'watch' | 'webhook_disabled';

/** One notification (migration 0033): a recipient hears of one event once (unique user_id, event_id). */
export interface NotificationTable {
  id: string;
  workspaceId: string;
  /** The recipient. */
  userId: string;
  kind: NotificationKind;
  eventId: string;
  eventType: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string;
  pageId: string | null;
  spaceId: string | null;
  /** The subject's title when the event happened. */
  title: ColumnType<string, string | undefined, string>;
  /** false: the recipient turned this kind off in the app but on by email; the row only waits for the digest. */
  inApp: ColumnType<boolean, boolean | undefined, boolean>;
  /** Whether the digest should mail it (the recipient's preference when it was made, still checked when mailing). */
  email: ColumnType<boolean, boolean | undefined, boolean>;
  readAt: Date | null;
  emailedAt: Date | null;
  createdAt: CreatedAt;
}

/** A person's choice for one kind; a kind without a row has the defaults (notifications.kinds.ts). */
export interface NotificationPreferenceTable {
  userId: string;
  kind: string;
  inApp: boolean;
  email: boolean;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A person watching a page or a space: its page and comment events notify them (kind `watch`). */
export interface WatchTable {
  workspaceId: string;
  userId: string;
  targetType: 'page' | 'space';
  targetId: string;
  createdAt: CreatedAt;
}

export interface NotificationsTables {
  notifications: NotificationTable;
  notificationPreferences: NotificationPreferenceTable;
  watches: WatchTable;
}
