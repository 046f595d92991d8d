import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB, Id } from '../../../db/schema.js';
import { lqaSettingsOf, readLqaDefinition } from '../../../domain/quality-assurance/lqa-profile.js';
import type { LqaSettingsView } from '../../../domain/quality-assurance/lqa-profile.js';
import { errors } from '../../../errors/index.js';
import { findDefaultLqaProfile, findLqaProfile } from './lqa-profiles.repository.js';

/** What the translation workflow asks of LQA profiles: references in bodies, and the LqaSettingsDto of a workflow step. */

/** Spec definition `LqaErrorCategoryDto` (nested once: the groups and their subcategories). */
const LqaSubcategory = Type.Object(
  {
    errorCategoryId: Type.Integer(),
    name: Type.String(),
    enabled: Type.Boolean(),
    errorCategories: Type.Array(Type.Unknown(), { maxItems: 0 }),
  },
  { title: 'LqaErrorCategoryDto' },
);
const LqaErrorCategory = Type.Object(
  { errorCategoryId: Type.Integer(), name: Type.String(), enabled: Type.Boolean(), errorCategories: Type.Array(LqaSubcategory) },
  { title: 'LqaErrorCategoryDto' },
);

/** Spec definition `LqaSettingsDto`. */
export const LqaSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether an LQA profile applies to the workflow step' }),
    severities: Type.Array(
      Type.Object({ severityId: Type.Integer(), name: Type.String(), weight: Type.Integer() }, { title: 'LqaSeverityDto' }),
    ),
    categories: Type.Array(LqaErrorCategory),
  },
  { title: 'LqaSettingsDto' },
);

/**
 * Checks that `uid` names an LQA profile of the organization: 400 ReferenceNotFound naming `field`
 * otherwise. Returns the uid as stored.
 */
export async function assertLqaProfileExists(db: Kysely<DB>, organizationId: Id, uid: string, field: string): Promise<string> {
  const row = await findLqaProfile(db, organizationId, uid);
  if (!row) throw errors.ReferenceNotFound({ what: 'LQA profile', key: uid, field });
  return row.uid;
}

/**
 * The LQA settings of a workflow step that names `profileUid` (null: none): that profile when it
 * still exists, else the organization's default profile, else LQA off (`enabled: false`).
 */
export async function lqaSettingsFor(db: Kysely<DB>, organizationId: Id, profileUid: string | null): Promise<LqaSettingsView> {
  const named = profileUid === null ? undefined : await findLqaProfile(db, organizationId, profileUid);
  const profile = named ?? (await findDefaultLqaProfile(db, organizationId));
  return lqaSettingsOf(profile ? readLqaDefinition(profile.definition) : null);
}
