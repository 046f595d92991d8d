import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { bool } from '../../../db/database.js';
import { completeLqaDefinition, readLqaDefinition } from '../../../domain/quality-assurance/lqa-profile.js';
import type { LqaProfileDefinition, LqaProfileInput } from '../../../domain/quality-assurance/lqa-profile.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { PageRequest } from '../../../http/paging.js';
import {
  deleteLqaProfileRow,
  findDefaultLqaProfile,
  findLqaProfile,
  insertLqaProfile,
  listLqaProfiles,
  lqaProfileAssignments,
  setDefaultLqaProfile,
  updateLqaProfileRow,
  userIdOf,
} from './lqa-profiles.repository.js';
import type { LqaProfileFilter, LqaProfileRow } from './lqa-profiles.repository.js';
import type { LqaProfileBody, LqaProfileListQuery, LqaProfileSort } from './lqa-profiles.schemas.js';

/** LQA profile use cases (docs/lqa-profiles.md). */

const NAME_MAX = 255;
const COPY_SUFFIX = ' (copy)';

function assertName(name: string): string {
  if (name.trim() === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  return name;
}

/** The organization's profile, or 404. */
export async function getLqaProfile(deps: AppDeps, caller: Caller, uid: string): Promise<LqaProfileRow> {
  const row = await findLqaProfile(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'LQA profile' });
  return row;
}

export function definitionOf(row: LqaProfileRow): LqaProfileDefinition {
  return readLqaDefinition(row.definition);
}

/**
 * Inserts a profile. It is the organization's default when the organization has none (its first
 * profile), unless `neverDefault`. Two first profiles created at once: the partial unique index
 * lets one be the default, and the other is stored as not default.
 */
async function insertProfile(
  deps: AppDeps,
  caller: Caller,
  name: string,
  definition: LqaProfileDefinition,
  neverDefault: boolean,
): Promise<LqaProfileRow> {
  const db = deps.database.db;
  const values = {
    organizationId: caller.organizationId,
    name,
    definition: JSON.stringify(definition),
    createdAt: deps.clock().toISOString(),
    createdById: caller.userId,
  };
  if (neverDefault) return insertLqaProfile(db, { ...values, isDefault: false });
  try {
    return await db.transaction().execute(async (trx) => {
      const isDefault = (await findDefaultLqaProfile(trx, caller.organizationId)) === undefined;
      return insertLqaProfile(trx, { ...values, isDefault });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return insertLqaProfile(db, { ...values, isDefault: false });
  }
}

/** createLqaProfile: the body completed from the defaults (completeLqaDefinition). */
export function createLqaProfile(deps: AppDeps, caller: Caller, body: LqaProfileBody): Promise<LqaProfileRow> {
  return insertProfile(deps, caller, assertName(body.name), completeLqaDefinition(body as LqaProfileInput), false);
}

/** updateLqaProfile: the body replaces the name and the whole definition (left-out parts take their defaults). */
export async function updateLqaProfile(deps: AppDeps, caller: Caller, uid: string, body: LqaProfileBody): Promise<LqaProfileRow> {
  const name = assertName(body.name);
  const row = await getLqaProfile(deps, caller, uid);
  return updateLqaProfileRow(deps.database.db, row.id, {
    name,
    definition: JSON.stringify(completeLqaDefinition(body as LqaProfileInput)),
  });
}

/**
 * makeDefault: the profile becomes the organization's one default (idempotent). Two calls at once
 * for different profiles: the partial unique index refuses the later one's write, which then runs
 * again and wins (the last call's profile is the default).
 */
export async function makeLqaProfileDefault(deps: AppDeps, caller: Caller, uid: string): Promise<LqaProfileRow> {
  const attempt = () =>
    deps.database.db.transaction().execute(async (trx) => {
      const row = await findLqaProfile(trx, caller.organizationId, uid);
      if (!row) throw errors.ResourceNotFound({ what: 'LQA profile' });
      return setDefaultLqaProfile(trx, caller.organizationId, row.id);
    });
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUniqueViolation(error) || tries >= 3) throw error;
    }
  }
}

/** The name of a copy: `<name> (copy)`, the name shortened so that the whole fits in 255 characters. */
export function copyName(name: string): string {
  const room = NAME_MAX - COPY_SUFFIX.length;
  return (name.length > room ? name.slice(0, room) : name) + COPY_SUFFIX;
}

/** duplicateProfile: a copy with the same definition, created by the caller, never the default. */
export async function duplicateLqaProfile(deps: AppDeps, caller: Caller, uid: string): Promise<LqaProfileRow> {
  const source = await getLqaProfile(deps, caller, uid);
  return insertProfile(deps, caller, copyName(source.name), definitionOf(source), true);
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * deleteLqaProfile: 400 LqaProfileInUse when the profile is the organization's default, or a
 * project (not in the recycle bin) or a project template still names it in a workflow step
 * (description, "Behaviour of other operations" 7); otherwise the profile is deleted.
 */
export async function deleteLqaProfile(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    const row = await findLqaProfile(trx, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'LQA profile' });
    if (bool(row.isDefault))
      throw errors.LqaProfileInUse({
        name: row.name,
        usedAs: "the organization's default LQA profile (make another profile the default first)",
      });
    const { projects, templates } = await lqaProfileAssignments(trx, caller.organizationId, row.uid);
    const uses = [projects ? plural(projects, 'project') : '', templates ? plural(templates, 'project template') : ''].filter(Boolean);
    if (uses.length) throw errors.LqaProfileInUse({ name: row.name, usedAs: `still assigned to workflow steps of ${uses.join(' and ')}` });
    await deleteLqaProfileRow(trx, row.id);
  });
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day `value` names (`2026-12-01`, or a date-time on that day) as [from, to), or a 400. */
export function createdDayRange(value: string): { from: string; to: string } {
  const match = DAY.exec(value);
  const at = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : new Date(value);
  const valid = !Number.isNaN(at.getTime()) && /^\d{4}-\d{2}-\d{2}/.test(value) && (!match || at.toISOString().slice(0, 10) === value);
  if (!valid)
    throw errors.InvalidArguments({
      reason: 'dateCreated must be a day (2026-12-01) or an ISO 8601 date-time.',
      details: [{ field: 'dateCreated', message: 'not a date' }],
    });
  const from = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const to = new Date(from.getTime() + 24 * 60 * 60 * 1000);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** getLqaProfiles: filters, sort keys paired with the order at the same position (ASC when missing); NAME when none. */
export async function listProfiles(
  deps: AppDeps,
  caller: Caller,
  query: LqaProfileListQuery,
): Promise<{ rows: LqaProfileRow[]; total: number; page: PageRequest }> {
  const db = deps.database.db;
  const filter: LqaProfileFilter = { name: query.name };
  if (query.createdBy !== undefined) filter.createdById = await userIdOf(db, caller.organizationId, query.createdBy);
  if (query.dateCreated !== undefined) {
    const { from, to } = createdDayRange(query.dateCreated);
    filter.createdFrom = from;
    filter.createdTo = to;
  }
  const keys: LqaProfileSort[] = query.sort?.length ? query.sort : ['NAME'];
  const seen = new Set<LqaProfileSort>();
  const sorts = keys.flatMap((key, i) => {
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ key, direction: query.order?.[i] === 'DESC' ? ('desc' as const) : ('asc' as const) }];
  });
  const page = { pageNumber: query.pageNumber, pageSize: query.pageSize };
  const { rows, total } = await listLqaProfiles(db, caller.organizationId, filter, sorts, page);
  return { rows, total, page };
}
