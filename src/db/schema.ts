import type { Generated, SqlBool } from 'kysely';

/**
 * Table types, as the application sees them through Kysely's CamelCasePlugin
 * (columns are snake_case in the database).
 *
 * Conventions shared by every table (see docs/architecture.md):
 * - `id` is a numeric surrogate key; PostgreSQL returns it as a string (int8), SQLite as a number.
 *   Use `String(row.id)` on the wire.
 * - `uid` is a random URL-safe identifier, unique per table.
 * - Timestamps are ISO 8601 UTC strings (`2026-11-21T13:09:29.000Z`) on both databases, so that
 *   they compare and sort the same way everywhere.
 * - Booleans come back as 0/1 from SQLite and true/false from PostgreSQL: read them with `bool()`.
 */
export type Id = string | number;
export type Timestamp = string;

export interface OrganizationsTable {
  id: Generated<Id>;
  uid: string;
  name: string;
  createdAt: Timestamp;
}

export const USER_ROLES = ['SYS_ADMIN', 'ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface UsersTable {
  id: Generated<Id>;
  uid: string;
  organizationId: string | number;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  passwordHash: string | null;
  timezone: string;
  note: string | null;
  active: SqlBool;
  createdAt: Timestamp;
  createdById: string | number | null;
  deletedAt: Timestamp | null;
}

/** Tokens handed out by the login operations; only their SHA-256 hash is stored. */
export interface LoginTokensTable {
  id: Generated<Id>;
  tokenHash: string;
  userId: string | number;
  organizationId: string | number;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  loginTokens: LoginTokensTable;
}
