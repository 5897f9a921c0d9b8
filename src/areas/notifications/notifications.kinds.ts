/** What can notify a person, strongest first: someone who qualifies twice for one event gets the strongest kind. */
export const PREFERENCE_KINDS = ['mention', 'reply', 'assigned', 'watch'] as const;
export type PreferenceKind = (typeof PREFERENCE_KINDS)[number];

/** Every kind a notification row may have (`webhook_disabled` is made by the webhooks area for workspace admins). */
export const NOTIFICATION_KINDS = [...PREFERENCE_KINDS, 'webhook_disabled'] as const;

export interface KindPreference {
  inApp: boolean;
  email: boolean;
}

/** A person who never chose: everything in the app; mentions and assignments by email too. */
export const DEFAULT_PREFERENCES: Record<PreferenceKind, KindPreference> = {
  mention: { inApp: true, email: true },
  reply: { inApp: true, email: false },
  assigned: { inApp: true, email: true },
  watch: { inApp: true, email: false },
};

/** The rank of a kind (lower is stronger). */
export const kindRank = (kind: PreferenceKind) => PREFERENCE_KINDS.indexOf(kind);
