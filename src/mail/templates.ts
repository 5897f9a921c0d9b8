import type { MailMessage } from './mailer.js';

/** One line, trimmed: names end up in a header, where a line break has no place. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The mail that carries an invitation link. */
export function invitationMail(input: { to: string; inviterName: string; workspaceName: string; role: string; url: string; expiresAt: Date }): MailMessage {
  const inviter = oneLine(input.inviterName);
  const workspace = oneLine(input.workspaceName);
  const until = input.expiresAt.toUTCString();
  const text = [
    `${inviter} invited you to join the workspace "${workspace}" on kb as ${input.role}.`,
    '',
    'Open this link to accept (it works once):',
    input.url,
    '',
    `The link expires on ${until}. If you did not expect this invitation, you can ignore this message.`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(inviter)} invited you to join the workspace <strong>${escapeHtml(workspace)}</strong> on kb as ${escapeHtml(input.role)}.</p>`,
    `<p><a href="${escapeHtml(input.url)}">Accept the invitation</a> (the link works once).</p>`,
    `<p>The link expires on ${escapeHtml(until)}. If you did not expect this invitation, you can ignore this message.</p>`,
  ].join('\n');
  return { to: input.to, subject: `${inviter} invited you to ${workspace} on kb`, text, html };
}
