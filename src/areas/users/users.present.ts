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
