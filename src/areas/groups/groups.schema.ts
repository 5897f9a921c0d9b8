import { z } from 'zod';
import { envelope, Id, LongText, Name } from '../../schema.js';

export const Group = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  memberCount: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const GroupMember = z.object({
  id: z.string().describe('User id'),
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  addedAt: z.string(),
});

export const GroupWithMembers = Group.extend({ members: z.array(GroupMember) });

export const GroupListQuery = z.object({ workspaceId: Id });
export const GroupParams = z.object({ groupId: Id });
export const GroupMemberParams = z.object({ groupId: Id, userId: Id });
export const GroupWorkspaceQuery = z.object({ workspaceId: Id.optional().describe('Optional: the group’s own workspace is used') });

export const GroupCreateBody = z.object({
  workspaceId: Id,
  name: Name.describe('Unique in the workspace (case-insensitively)'),
  description: LongText.optional(),
});

export const GroupUpdateBody = z.object({
  workspaceId: Id.optional().describe('Optional: the group’s own workspace is used'),
  name: Name.optional(),
  description: LongText.nullable().optional(),
});

export const GroupMembersAddBody = z.object({
  workspaceId: Id.optional(),
  userIds: z
    .array(Id)
    .min(1)
    .max(100)
    .transform((ids) => [...new Set(ids)])
    .describe('Users to add; each must be a member of the workspace'),
});

export const GroupResult = envelope(GroupWithMembers);
export const GroupListResult = envelope(z.array(Group));
