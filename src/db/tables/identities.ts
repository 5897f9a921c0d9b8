import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

/** An identity at an OpenID provider that signs in as a user (single sign-on). */
export interface UserIdentityTable {
  id: string;
  userId: string;
  /** The provider's issuer identifier, as its ID tokens name it. */
  issuer: string;
  /** The provider's stable id of the person (`sub`), unique per issuer. */
  subject: string;
  /** The email the provider last gave, for the record; sign-in never matches on it once the identity exists. */
  email: string | null;
  createdAt: CreatedAt;
  lastLoginAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface IdentitiesTables {
  userIdentities: UserIdentityTable;
}
