import { z } from 'zod';
import { envelope, Id, Name, Url } from '../../schema.js';

export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  role: z.string().nullable().describe('Role in the workspace of the request, when there is one'),
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
  avatarUrl: Url.nullable().optional(),
});

export const UserResult = envelope(User);
export const UserListResult = envelope(z.array(User));
