import { z } from 'zod';
import { envelope, Name } from '../../schema.js';
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
});
const KeyScope = { access: ApiKeyAccess, expiresAt: z.string().nullable().describe('When the key stops working; null: never') };
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  ...KeyScope,
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Last request made with it (to the minute)'),
});
export const ApiKeyCreated = envelope(
  z.object({ id: z.string(), name: z.string(), key: z.string().describe('The secret; shown only in this response'), ...KeyScope, createdAt: z.string() }),
);
export const ApiKeyList = envelope(z.array(ApiKey));
export const ApiKeyParams = z.object({ id: z.string().min(1).max(200) });
