import { z } from 'zod';
import { envelope, Id, LongText, Name } from '../../schema.js';
import { PictureUrl } from '../users/users.schema.js';
import { ROLES } from './workspaces.policy.js';

export const Role = z.enum(ROLES);

/** A DNS label: 1–63 of a–z, 0–9 and hyphens, not starting or ending with a hyphen. */
export const Hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(63)
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a DNS label: letters, digits and hyphens, 1–63 characters, not starting or ending with a hyphen')
  .describe('Subdomain of the workspace, unique');

export const WorkspaceSettings = z.object({
  defaultRole: Role.optional().describe('Role given to new members when none is named'),
  allowPublicPages: z.boolean().optional(),
});

export const Workspace = z.object({
  id: z.string(),
  name: z.string(),
  hostname: z.string(),
  logoUrl: z.string().nullable(),
  description: z.string().nullable(),
  settings: z.object({ defaultRole: Role, allowPublicPages: z.boolean() }),
  memberCount: z.number(),
  role: Role.optional().describe('The caller’s role; in list results only'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const WorkspaceCreateBody = z.object({
  name: Name,
  hostname: Hostname,
  description: LongText.optional(),
  logoUrl: PictureUrl.optional(),
});

export const WorkspaceUpdateBody = z.object({
  name: Name.optional(),
  description: LongText.nullable().optional(),
  logoUrl: PictureUrl.nullable().optional(),
  settings: WorkspaceSettings.optional().describe('Merged key by key into the current settings'),
});

export const Member = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  role: Role,
  joinedAt: z.string(),
});

export const MemberAddBody = z.object({ userId: Id, role: Role });
export const MemberUpdateBody = z.object({ role: Role });
export const MemberParams = z.object({ workspaceId: Id, userId: Id });

export const WorkspaceResult = envelope(Workspace);
export const WorkspaceListResult = envelope(z.array(Workspace));
export const MemberResult = envelope(Member);
export const MemberListResult = envelope(z.array(Member));
