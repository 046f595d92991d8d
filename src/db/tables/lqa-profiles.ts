import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-12-01T1100_lqa_profiles (docs/lqa-profiles.md). */
export interface LqaProfilesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** The organization's default profile: at most one per organization (a partial unique index). */
  isDefault: Generated<SqlBool>;
  /** JSON: `errorCategories`, `penaltyPoints`, `passFailThreshold` (src/domain/quality-assurance/lqa-profile.ts). */
  definition: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface LqaProfileTables {
  lqaProfiles: LqaProfilesTable;
}
