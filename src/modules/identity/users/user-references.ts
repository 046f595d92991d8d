import type { DB, Id } from '../../../db/schema.js';
import type { Kysely } from 'kysely';
import { findUsersByIds } from './users.repository.js';
import { toUserReference } from './user-views.js';
import type { UserReference } from './users.schemas.js';

/**
 * Loads, in one query, the users a page of records points at (`createdBy`, `lastModifiedBy`, …)
 * and returns a lookup from user id to the spec's UserReference (null for null or unknown ids).
 */
export async function userReferenceLookup(
  db: Kysely<DB>,
  organizationId: string,
  ids: ReadonlyArray<Id | null | undefined>,
): Promise<(id: Id | null | undefined) => UserReference | null> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null && id !== undefined).map(String))];
  const users = new Map((await findUsersByIds(db, organizationId, wanted)).map((u) => [u.id, toUserReference(u)]));
  return (id) => (id === null || id === undefined ? null : (users.get(id) ?? null));
}
