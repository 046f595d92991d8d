import { bool } from '../../../db/database.js';
import { ROLE_SHAPES, parseRoleSettings } from '../../../domain/users/role-settings.js';
import type { ReferenceKind } from '../../../domain/users/role-settings.js';
import type { ReferencedRecord } from './setting-references.js';
import type { ClientRow } from './guest-clients.repository.js';
import type { UserDetailsV3, UserDto } from './users.schemas.js';
import type { UserReference } from './users.schemas.js';
import type { UserRow } from './users.repository.js';

/** Wire views of a user record: the spec's UserReference, UserDto and UserDetailsDtoV3. */

export function toUserReference(row: UserRow): UserReference {
  return {
    id: row.id,
    uid: row.uid,
    userName: row.userName,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role: row.role,
  };
}

export function toUserDto(row: UserRow, createdBy: UserRow | undefined): UserDto {
  return {
    ...toUserReference(row),
    dateCreated: row.createdAt,
    dateDeleted: row.deletedAt,
    createdBy: createdBy ? toUserReference(createdBy) : null,
    timezone: row.timezone,
    note: row.note,
    active: bool(row.active),
    bot: bool(row.isBot),
  };
}

/** Records a user's settings point at, so that references go out with their id and name. */
export interface ReferencedRecords {
  /** Referenced records by kind, then uid. */
  records: Map<ReferenceKind, Map<string, ReferencedRecord>>;
  /** A GUEST user's client (the `guest_client_id` reference). */
  guestClient?: ClientRow | undefined;
}

function reference(kind: ReferenceKind, key: string, records: ReferencedRecords): Record<string, string> {
  const found = records.records.get(kind)?.get(key);
  if (kind === 'automationWidget') return { id: key };
  return found ? { id: found.id, uid: found.uid, name: found.name } : { uid: key };
}

export function toUserDetailsV3(
  row: UserRow,
  createdBy: UserRow | undefined,
  records: ReferencedRecords,
  assignableRoles: readonly string[],
): UserDetailsV3 {
  const settings = parseRoleSettings(row.role, row.roleSettings);
  const shape = ROLE_SHAPES[row.role];
  const roleFields: Record<string, unknown> = { ...settings.rights, ...settings.locales, ...settings.strings };
  for (const [field, kind] of Object.entries(shape.referenceLists)) {
    roleFields[field] = (settings.referenceLists[field] ?? []).map((key) => reference(kind, key, records));
  }
  for (const [field, kind] of Object.entries(shape.references)) {
    const key = settings.references[field];
    roleFields[field] = key ? reference(kind, key, records) : null;
  }
  if (row.role === 'GUEST') {
    const client = records.guestClient;
    roleFields.client = client ? { id: client.id, uid: client.uid, name: client.name } : null;
  }
  return {
    ...roleFields,
    id: row.id,
    uid: row.uid,
    userName: row.userName,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    dateCreated: row.createdAt,
    dateDeleted: row.deletedAt,
    createdBy: createdBy ? toUserReference(createdBy) : null,
    role: row.role,
    assignableRoles: [...assignableRoles],
    timezone: row.timezone,
    note: row.note,
    receiveNewsletter: bool(row.receiveNewsletter),
    active: bool(row.active),
    pendingEmailChange: false,
    bot: bool(row.isBot),
  };
}
