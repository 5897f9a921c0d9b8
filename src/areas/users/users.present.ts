import type { UserRow } from '../../db/types.js';

export interface UserView {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  role: string | null;
  createdAt: string;
}

type UserFields = Pick<UserRow, 'id' | 'email' | 'name' | 'avatarUrl' | 'createdAt'>;

export function presentUser(row: UserFields, role: string | null = null): UserView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatarUrl,
    role,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The caller's own account: also whether kb has verified its email (others never see that of anyone else). */
export function presentSelf(row: UserFields & Pick<UserRow, 'emailVerifiedAt'>, role: string | null = null): UserView & { emailVerified: boolean } {
  return { ...presentUser(row, role), emailVerified: row.emailVerifiedAt !== null };
}
