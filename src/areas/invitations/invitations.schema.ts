import { z } from 'zod';
import { Deleted, envelope, Id, Name } from '../../schema.js';
import { Email, Password } from '../auth/auth.schema.js';
import { User } from '../users/users.schema.js';
import { Role } from '../workspaces/workspaces.schema.js';

export const InvitationCreateBody = z.object({
  email: Email.describe('Who is invited (stored in lower case); an open invitation to the same address is replaced'),
  role: Role.describe('The role they get in the workspace on accepting'),
});

export const InvitationParams = z.object({ workspaceId: Id, id: Id });
export const InvitationTokenParams = z.object({ token: z.string().min(1).max(200).describe('The secret of the invitation link (…/invite/<token>)') });

/** Accepting without being signed in creates the invited account: name and password are needed then, and only then. */
export const InvitationAcceptBody = z
  .object({
    name: Name.optional().describe('Not signed in: the new account’s name'),
    password: Password.optional().describe('Not signed in: the new account’s password (8+ characters)'),
    session: z
      .enum(['cookie', 'token'])
      .default('cookie')
      .describe('Not signed in: how the new account’s session is handed over. `cookie` (default): the HttpOnly session cookie and `csrfToken`, for browsers; `token`: the session JWT in the answer, for scripts'),
  })
  .default({ session: 'cookie' });

export const InvitationStatus = z.enum(['pending', 'expired']).describe('`expired`: the link no longer works; invite again for a new one');

export const Invitation = z.object({
  id: z.string(),
  workspaceId: z.string(),
  email: z.string(),
  role: Role,
  status: InvitationStatus,
  invitedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const InvitationCreated = envelope(
  z.object({
    invitation: Invitation,
    url: z.string().describe('The invitation link; shown only in this response'),
    mailed: z.boolean().describe('Whether the link was mailed to the address (SMTP_URL set and the server took the message)'),
    mailError: z.string().optional().describe('Why mailing failed (the invitation exists all the same: pass the link on yourself)'),
  }),
);
export const InvitationListResult = envelope(z.array(Invitation));
export const InvitationRevoked = Deleted;

export const InvitationPreview = envelope(
  z.object({
    workspace: z.object({ id: z.string(), name: z.string(), hostname: z.string() }),
    inviter: z.object({ name: z.string() }).nullable(),
    email: z.string(),
    role: Role,
    expiresAt: z.string(),
    accountExists: z.boolean().describe('Whether an account with this email exists: then sign in as it and accept; else accept with a name and password'),
  }),
);

export const InvitationAccepted = envelope(
  z.object({
    workspaceId: z.string(),
    role: Role.describe('Your role in the workspace now'),
    user: User,
    token: z.string().optional().describe('A new account’s session token (JWT) for scripts (with an Authorization header); absent when you were signed in already, and for browsers, which get the HttpOnly cookie instead'),
    expiresAt: z.string().optional(),
    csrfToken: z.string().optional().describe('Browsers (no Authorization header): the session cookie was set; send this as X-CSRF-Token'),
  }),
);

export const ReceivedInvitationParams = z.object({ id: Id });
export const ReceivedInvitation = z.object({
  id: z.string(),
  workspace: z.object({ id: z.string(), name: z.string(), hostname: z.string() }),
  email: z.string().describe('The address invited: yours'),
  role: Role.describe('The role you get on accepting'),
  invitedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export const ReceivedInvitationList = envelope(z.array(ReceivedInvitation));

/** What adding an existing account by user id answers when it invites the account instead (202). */
export const MemberInvited = envelope(
  InvitationCreated.shape.data.extend({
    status: z.literal('invited').describe('The account was invited: it becomes a member when its holder accepts (GET /users/me/invitations)'),
  }),
);
