import { z } from 'zod';
import { envelope, Id, Name, QueryBoolean } from '../../schema.js';
import { User } from '../users/users.schema.js';

export const Email = z.string().trim().toLowerCase().max(320).pipe(z.email());
export const Password = z.string().min(8, 'must be at least 8 characters').max(1024);

export const SignupBody = z.object({ email: Email, password: Password, name: Name });
export const LoginBody = z.object({ email: Email, password: z.string().min(1).max(1024) });

export const SignupResult = envelope(z.object({ user: User, token: z.string() }));
export const LoginResult = envelope(z.object({ user: User, token: z.string(), expiresAt: z.string() }));
export const SessionResult = envelope(
  z.object({
    user: User,
    csrfToken: z.string().describe('Send it as the X-CSRF-Token header on every write made with the session cookie'),
  }),
);
export const SignedOut = envelope(z.object({ signedOut: z.literal(true) }));

export const ApiKeyAccess = z
  .enum(['read-only', 'read-write'])
  .describe('`read-only`: every write (REST or an MCP tool that changes anything) is refused with 403; `read-write` (default): what the user may do');
export const ApiKeyCreateBody = z.object({
  name: Name.describe('A label to recognise the key by'),
  access: ApiKeyAccess.default('read-write'),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('When the key stops working (ISO 8601, in the future); absent: never'),
  workspaceId: Id.optional().describe(
    'Limit the key to this workspace (you must be a member): everywhere else it acts as a non-member. Absent: all your workspaces',
  ),
});
const KeyScope = {
  access: ApiKeyAccess,
  expiresAt: z.string().nullable().describe('When the key stops working; null: never'),
  workspaceId: z.string().nullable().describe('The only workspace the key acts in; null: all of its user’s workspaces'),
};
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  ...KeyScope,
  workspaceName: z.string().nullable().describe('The name of the workspace the key is limited to'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Last request made with it (to the minute)'),
});
export const ApiKeyCreated = envelope(
  z.object({ id: z.string(), name: z.string(), key: z.string().describe('The secret; shown only in this response'), ...KeyScope, createdAt: z.string() }),
);
export const ApiKeyList = envelope(z.array(ApiKey));
export const ApiKeyParams = z.object({ id: z.string().min(1).max(200) });

export const Session = z.object({
  id: z.string(),
  device: z.string().describe('A short readable label guessed from the user agent, e.g. "Chrome on Linux"'),
  userAgent: z.string().nullable().describe('The user agent the session was started with'),
  address: z.string().nullable().describe('The latest address it was used from'),
  firstAddress: z.string().nullable().describe('The address it was started from'),
  via: z.enum(['password', 'oidc', 'invitation', 'reset', 'signup']).describe('How it was started'),
  createdAt: z.string(),
  lastSeenAt: z.string().describe('Last request made with it (to the minute)'),
  expiresAt: z.string(),
  current: z.boolean().describe('True for the session making this request'),
});
export const SessionList = envelope(z.array(Session));
export const SessionParams = z.object({ id: Id });
export const SessionsRevokeQuery = z.object({
  keepCurrent: QueryBoolean.default(true).describe('`true` (default): sign out every other session; `false`: this one too'),
});
export const SessionsRevoked = envelope(z.object({ revoked: z.number().int().describe('How many sessions were signed out'), keptCurrent: z.boolean() }));

export const PasswordResetBody = z.object({
  token: z.string().min(1).max(200).describe('The token from the reset link (the last part of /reset-password/<token>)'),
  newPassword: Password,
  session: z
    .enum(['token', 'cookie'])
    .default('token')
    .describe('`token` (default): answer the session JWT, like login; `cookie`: set the browser session cookie instead, like POST /auth/session'),
});
export const PasswordResetResult = envelope(
  z.object({
    user: User,
    token: z.string().optional().describe('The new session JWT (absent with `session: "cookie"`)'),
    expiresAt: z.string(),
    csrfToken: z.string().optional().describe('With `session: "cookie"`: the X-CSRF-Token of the new browser session'),
  }),
);
export const ResetLinkParams = z.object({ workspaceId: Id, userId: Id });
export const ResetLinkCreated = envelope(
  z.object({
    url: z.string().describe('The one-time link to give the member: PUBLIC_URL/reset-password/<token>'),
    expiresAt: z.string(),
    mailed: z.boolean().describe('True when the link was also mailed to the member (SMTP_URL set)'),
  }),
);

export const EmailVerificationRequested = envelope(
  z.object({
    email: z.string().describe('The address the link was mailed to: your account’s'),
    verified: z.boolean().describe('True when the email was verified already (nothing was mailed)'),
    mailed: z.boolean(),
    expiresAt: z.string().optional().describe('Until when the mailed link works (24 hours)'),
  }),
);
export const EmailVerificationConfirmBody = z.object({
  token: z.string().min(1).max(200).describe('The token from the mailed link (the last part of /verify-email/<token>)'),
});
export const EmailVerified = envelope(z.object({ email: z.string(), verified: z.literal(true) }));
