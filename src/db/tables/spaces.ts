import type { CreatedAt, UpdatedAt } from '../types.js';

/** A member's role, in a workspace or a space. */
export type Role = 'admin' | 'editor' | 'viewer';

export interface SpaceTable {
  id: string;
  workspaceId: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  visibility: 'public' | 'private';
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A user's or a group's role in a space: exactly one of `userId` and `groupId` is set. */
export interface SpaceMemberTable {
  id: string;
  spaceId: string;
  workspaceId: string;
  userId: string | null;
  groupId: string | null;
  role: Role;
  addedBy: string | null;
  addedAt: CreatedAt;
}

export interface GroupTable {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface GroupMemberTable {
  groupId: string;
  userId: string;
  workspaceId: string;
  addedAt: CreatedAt;
}

export interface SpacesTables {
  spaces: SpaceTable;
  spaceMembers: SpaceMemberTable;
  groups: GroupTable;
  groupMembers: GroupMemberTable;
}
