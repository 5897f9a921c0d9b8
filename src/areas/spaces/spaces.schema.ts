import { z } from 'zod';
import { envelope, Id, LongText, Name } from '../../schema.js';
import { Role } from '../workspaces/workspaces.schema.js';

export const VISIBILITIES = ['public', 'private'] as const;
export const Visibility = z.enum(VISIBILITIES).describe('public: every workspace member sees it; private: only its members and workspace admins');

export const MAX_SLUG = 100;
export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(MAX_SLUG)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits separated by single hyphens')
  .describe('Unique in the workspace; generated from the name when omitted');

export const Icon = z.string().trim().max(100).describe('An emoji or an icon name');

/** Up to 100 distinct ids. */
const IdList = z
  .array(Id)
  .max(100)
  .transform((ids) => [...new Set(ids)]);

export const Space = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  visibility: Visibility,
  pageCount: z.number().describe('Pages of the space, trash excluded'),
  memberCount: z.number().optional().describe('Distinct users with a role in the space (directly or through a group); single read only'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const SpaceMember = z.object({
  id: z.string().describe('User id'),
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  role: Role.describe('The highest of the user’s space roles (direct and through groups)'),
  via: z.enum(['direct', 'group']).describe('direct when the user holds a role of their own in the space (even if a group also gives one)'),
  directRole: Role.nullable().describe('The user’s own role in the space, null when only groups give one'),
  groupIds: z.array(z.string()).describe('Groups through which the user has a role in the space'),
  addedAt: z.string(),
});

export const SpacePermission = z.object({
  spaceId: z.string(),
  targetId: z.string(),
  isGroup: z.boolean(),
  name: z.string().describe('The user’s or the group’s name'),
  role: Role,
  addedAt: z.string(),
});

export const SpaceListQuery = z.object({ workspaceId: Id });
export const SpaceReadQuery = z.object({ workspaceId: Id });
export const SpaceOptionalWorkspaceQuery = z.object({ workspaceId: Id.optional().describe('Optional: the space’s own workspace is used') });
export const SpaceParams = z.object({ spaceId: Id });
export const SpaceMemberParams = z.object({ spaceId: Id, userId: Id.describe('A user id (or a group id) with a direct role in the space') });

export const SpaceCreateBody = z.object({
  workspaceId: Id,
  name: Name,
  description: LongText.optional(),
  slug: Slug.optional(),
  icon: Icon.optional(),
  visibility: Visibility.default('public'),
});

export const SpaceUpdateBody = z.object({
  workspaceId: Id,
  name: Name.optional(),
  description: LongText.nullable().optional(),
  icon: Icon.nullable().optional(),
  visibility: Visibility.optional(),
});

export const SpaceMembersAddBody = z.object({
  workspaceId: Id,
  userIds: IdList.optional().describe('Users to add; each must be a member of the workspace'),
  groupIds: IdList.optional().describe('Groups of the same workspace to add'),
  role: Role,
});

export const SpacePermissionBody = z.object({
  workspaceId: Id,
  targetId: Id.describe('A user id, or a group id when isGroup is true'),
  role: Role,
  isGroup: z.boolean().default(false),
});

export const SpaceResult = envelope(Space);
export const SpaceListResult = envelope(z.array(Space));
export const SpaceMemberListResult = envelope(z.array(SpaceMember));
export const SpacePermissionResult = envelope(SpacePermission);
export const SpacePermissionListResult = envelope(z.array(SpacePermission));
