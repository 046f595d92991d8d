import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { TRUNCATED_OPTIONS, isSelectType } from '../../../domain/custom-fields/custom-field-rules.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { entitiesOf, optionPreviews } from './custom-fields.repository.js';
import type { CustomFieldOptionRow } from './custom-fields.repository.js';
import type { CustomFieldRow } from './custom-fields.repository.js';
import type { CustomFieldOptionSchema, CustomFieldSchema } from './custom-fields.schemas.js';

export type CustomFieldDto = Static<typeof CustomFieldSchema>;
export type CustomFieldOptionDto = Static<typeof CustomFieldOptionSchema>;

export function toOptionDto(row: CustomFieldOptionRow): CustomFieldOptionDto {
  return { uid: row.uid, value: row.value, deprecated: bool(row.deprecated) };
}

/**
 * CustomFieldDto of a page of fields: users in one query, option previews in two. `options` is
 * null for fields that are not SINGLE_SELECT / MULTI_SELECT; for select fields it holds the first
 * TRUNCATED_OPTIONS options (in the order added, deprecated ones flagged) and how many follow.
 */
export async function toCustomFieldDtos(db: Kysely<DB>, organizationId: string, rows: CustomFieldRow[]): Promise<CustomFieldDto[]> {
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.flatMap((r) => [r.createdById, r.lastModifiedById]),
  );
  const previews = await optionPreviews(
    db,
    rows.filter((r) => isSelectType(r.type)).map((r) => r.id),
    TRUNCATED_OPTIONS,
  );
  return rows.map((row) => {
    const preview = previews.get(row.id) ?? { first: [], total: 0 };
    return {
      uid: row.uid,
      name: row.name,
      type: row.type,
      allowedEntities: entitiesOf(row),
      options: isSelectType(row.type)
        ? { truncatedOptions: preview.first.map(toOptionDto), remainingCount: preview.total - preview.first.length }
        : null,
      createdAt: row.createdAt,
      createdBy: users(row.createdById),
      lastModified: row.lastModifiedAt,
      lastModifiedBy: users(row.lastModifiedById),
      requiredFrom: row.requiredFrom,
      required: bool(row.required),
      description: row.description,
    };
  });
}
