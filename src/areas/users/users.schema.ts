import { z } from 'zod';
import { envelope, Id, Name } from '../../schema.js';

/** Whitespace and control characters (C0, DEL, C1): browsers drop some of them inside a scheme, so `java\tscript:` runs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/;

/**
 * An image URL shown to other users (avatar, workspace logo): trimmed, then refused if any whitespace or control
 * character remains (C0 controls included), and only `http:` or `https:` (never `javascript:`, `data:` or the like).
 */
export const PictureUrl = z
  .string()
  .max(2048)
  .trim()
  .refine((v) => !SPACE_OR_CONTROL.test(v), 'must not contain whitespace or control characters')
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: 'must be an http or https URL' }))
  .describe('An http(s) URL');

export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  role: z.string().nullable().describe('Role in the workspace of the request, when there is one'),
  emailVerified: z
    .boolean()
    .optional()
    .describe('Your own account only (/users/me, /auth/session): whether kb has verified that you read this email (POST /auth/verify-email)'),
  createdAt: z.string(),
});

export const UserListQuery = z.object({
  workspaceId: Id.describe('Workspace whose members to list'),
  query: z.string().max(200).optional().describe('Matches name or email, case-insensitively'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const UserParams = z.object({ userId: Id });
export const UserReadQuery = z.object({ workspaceId: Id.optional() });

export const UserUpdateBody = z.object({
  name: Name.optional(),
  avatarUrl: PictureUrl.nullable().optional(),
});

export const UserResult = envelope(User);
export const UserListResult = envelope(z.array(User));

export const PasswordChangeBody = z.object({
  currentPassword: z.string().min(1).max(1024).describe('The password the account has now'),
  newPassword: z.string().min(8, 'must be at least 8 characters').max(1024),
});
export const PasswordChanged = envelope(
  z.object({ changed: z.literal(true), sessionsRevoked: z.number().int().describe('How many other sessions were signed out') }),
);
