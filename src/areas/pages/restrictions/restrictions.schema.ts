import { z } from 'zod';
import { envelope, Id } from '../../../schema.js';

export const GrantRole = z.enum(['viewer', 'editor']).describe('viewer reads; editor also edits (never more than the space gives)');

export const GrantInput = z
  .object({
    userId: Id.optional().describe('A member of the workspace'),
    groupId: Id.optional().describe('A group of the workspace'),
    role: GrantRole,
  })
  .refine((g) => (g.userId === undefined) !== (g.groupId === undefined), { message: 'give exactly one of userId and groupId' });

export const RestrictionPutBody = z.object({
  grants: z.array(GrantInput).min(1).max(200).describe('Who may open the page and its subtree (1–200 users or groups)'),
});

export const Grant = z.object({
  type: z.enum(['user', 'group']),
  id: z.string(),
  name: z.string(),
  email: z.string().optional().describe('Users only'),
  role: GrantRole,
});

export const AccessPerson = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  role: z.enum(['viewer', 'editor', 'admin']).describe('Their effective role on this page'),
  via: z.enum(['workspace_admin', 'space_role', 'space_group', 'public_space', 'restriction']),
  detail: z.string().describe('Why, in words: "Editors of space Engineering", "Group Design (restriction on this page)"'),
});

export const PageAccess = z.object({
  pageId: z.string(),
  restricted: z.boolean().describe('True when the page or a page above it is restricted'),
  restriction: z
    .object({ pageId: z.string(), grants: z.array(Grant) })
    .nullable()
    .describe("The page's own restriction; null when it has none"),
  inherited: z.array(z.object({ pageId: z.string(), title: z.string() })).describe('Restricted pages above this one (each applies too)'),
  people: z.array(AccessPerson).describe('Everyone who can open the page, by name (at most 200)'),
  peopleTruncated: z.boolean(),
});

export const RestrictedPage = z.object({
  pageId: z.string(),
  title: z.string(),
  spaceId: z.string(),
  inTrash: z.boolean(),
  grantCount: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

export const PageAccessResult = envelope(PageAccess);
export const RestrictedPageListResult = envelope(z.array(RestrictedPage));
