import type { AuditEntry } from './audit.queries';

/**
 * An audit entry in words: "Ana changed Ben's role from viewer to editor". Names are the current ones (the
 * actor's and the target's); spaces and groups are named as they were at the time of the event.
 */
export function describeEntry(entry: AuditEntry): string {
  const d = entry.details as Record<string, unknown>;
  const text = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : null);
  const who = entry.actor?.name ?? 'Someone';
  const target = entry.target?.name ?? (entry.target?.type === 'group' ? 'a group' : 'a former member');
  const targetOwn = entry.target?.name ? `${entry.target.name}’s` : `${target}’s`;
  const subject = entry.target?.type === 'group' ? `the group ${target}` : target;
  const space = text('spaceName') ?? 'a space';
  const group = text('groupName') ?? 'a group';
  const email = text('email');
  const role = text('role');
  const change = `from ${text('from') ?? '?'} to ${text('to') ?? '?'}`;
  const self = entry.actor && entry.target?.id === entry.actor.id;
  switch (entry.action) {
    case 'auth.signin':
      return `${who} signed in`;
    case 'auth.signin_failed':
      return `Failed sign-in${email ? ` as ${email}` : ''}`;
    case 'auth.signout':
      return `${who} signed out`;
    case 'auth.session_revoked':
      return typeof d.count === 'number' && d.count > 1 ? `${who} signed out ${d.count} sessions` : `${who} signed out a session`;
    case 'auth.password_changed':
      return `${who} changed their password`;
    case 'auth.password_reset_link_created':
      return `${who} created a password reset link for ${target}`;
    case 'auth.password_reset':
      return `${who} reset their password with a link`;
    case 'auth.email_verified':
      return `${who} verified their email`;
    case 'auth.unverified_account_claimed':
      return `${who} signed in with single sign-on to an account whose email was unverified: its password, sessions and API keys were revoked`;
    case 'api_key.created':
      return `${who} created an API key${text('name') ? ` “${text('name')}”` : ''}`;
    case 'api_key.revoked':
      return `${who} revoked an API key`;
    case 'member.added':
      // Through an invitation the person who joins is the actor.
      return self ? `${who} joined${role ? ` as ${role}` : ''}` : `${who} added ${target}${role ? ` as ${role}` : ''}`;
    case 'member.role_changed':
      return `${who} changed ${targetOwn} role ${change}`;
    case 'member.removed':
      return self ? `${who} left the workspace` : `${who} removed ${target}`;
    case 'invitation.created':
      return `${who} invited ${email ?? 'someone'}${role ? ` as ${role}` : ''}`;
    case 'invitation.revoked':
      return `${who} revoked the invitation of ${email ?? 'someone'}`;
    case 'invitation.accepted':
      return `${who} accepted an invitation${role ? ` as ${role}` : ''}`;
    case 'invitation.declined':
      return `${who} declined an invitation${role ? ` as ${role}` : ''}`;
    case 'space_member.added':
      return `${who} gave ${subject} ${role ? `the ${role} role` : 'a role'} in ${space}`;
    case 'space_member.role_changed':
      return `${who} changed the role of ${subject} in ${space} ${change}`;
    case 'space_member.removed':
      return `${who} removed ${subject} from ${space}`;
    case 'group_member.added':
      return `${who} added ${target} to the group ${group}`;
    case 'group_member.removed':
      return `${who} removed ${target} from the group ${group}`;
    case 'page_restriction.set':
      return `${who} restricted a page`;
    case 'page_restriction.removed':
      return `${who} lifted a page’s restriction`;
    case 'share.created':
      return `${who} published a page by a public link`;
    case 'share.revoked':
      return `${who} revoked a public link`;
    case 'export.created':
      return `${who} exported ${text('pageId') ? 'a page' : 'a space'}${text('format') ? ` as ${text('format') === 'html' ? 'HTML' : 'Markdown'}` : ''}`;
    case 'webhook.created':
      return `${who} added a webhook${text('url') ? ` to ${text('url')}` : ''}`;
    case 'webhook.updated':
      return `${who} changed a webhook`;
    case 'webhook.deleted':
      return `${who} deleted a webhook${text('url') ? ` to ${text('url')}` : ''}`;
    case 'webhook.secret_rotated':
      return `${who} rotated a webhook’s signing secret`;
    default:
      return `${who}: ${entry.action}`;
  }
}

export function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
