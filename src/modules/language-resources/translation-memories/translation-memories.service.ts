import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { resolveReference } from '../../organization-setup/setup-records/index.js';
import type { SetupReferenceKind } from '../../organization-setup/setup-records/index.js';
import {
  deleteTransMemoryRows,
  findVisibleTransMemory,
  insertTransMemory,
  listVisibleTransMemories,
  mayOnTransMemory,
  targetLangsOf,
  updateTransMemory,
} from './translation-memories.repository.js';
import type { TransMemoryFilter, TransMemoryRight, TransMemoryRow } from './translation-memories.repository.js';
import type { CreateTransMemoryBody, EditTransMemoryBody } from './translation-memories.schemas.js';
import { forgetIndexes } from './tm-index/index.js';

/** Rules of TM records: create, edit, delete, target languages (docs/translation-memory.md, "Records"). */

const db = (deps: AppDeps) => deps.database.db;

/** The TM the caller sees, or 404 (another organization's, a deleted one, one outside a manager's lists). */
export async function requireTransMemory(deps: AppDeps, caller: Caller, uid: string, right?: TransMemoryRight): Promise<TransMemoryRow> {
  const row = await findVisibleTransMemory(db(deps), caller, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Translation memory' });
  if (right && !mayOnTransMemory(caller, row, right)) {
    throw errors.AccessDenied({ reason: `You may not do this to a translation memory created by someone else (${right}).` });
  }
  return row;
}

type ReferenceField = 'client' | 'businessUnit' | 'domain' | 'subDomain';
const REFERENCE_COLUMNS = { client: 'clientId', businessUnit: 'businessUnitId', domain: 'domainId', subDomain: 'subDomainId' } as const;

async function resolveSetupReferences(
  trx: Kysely<DB>,
  organizationId: Id,
  body: Partial<Record<ReferenceField, { id: string } | null | undefined>>,
): Promise<Record<(typeof REFERENCE_COLUMNS)[ReferenceField], Id | null>> {
  const result = { clientId: null, businessUnitId: null, domainId: null, subDomainId: null } as Record<
    (typeof REFERENCE_COLUMNS)[ReferenceField],
    Id | null
  >;
  for (const field of Object.keys(REFERENCE_COLUMNS) as ReferenceField[]) {
    const ref = body[field];
    if (ref) result[REFERENCE_COLUMNS[field]] = await resolveReference(trx, organizationId, field as SetupReferenceKind, field, ref);
  }
  return result;
}

function checkTargetLangs(sourceLang: string, targetLangs: readonly string[]): string[] {
  const langs = assertLanguages('targetLangs', targetLangs);
  if (langs.includes(sourceLang)) {
    throw errors.InvalidArguments({
      reason: 'A translation memory cannot have its source language as a target language.',
      details: [{ field: 'targetLangs', message: `the source language "${sourceLang}" is listed` }],
    });
  }
  return langs;
}

export async function createTransMemory(deps: AppDeps, caller: Caller, body: CreateTransMemoryBody): Promise<TransMemoryRow> {
  const sourceLang = assertLanguage('sourceLang', body.sourceLang);
  const targetLangs = checkTargetLangs(sourceLang, body.targetLangs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const references = await resolveSetupReferences(trx, caller.organizationId, body);
      return insertTransMemory(trx, {
        organizationId: caller.organizationId,
        name: body.name,
        sourceLang,
        targetLangs,
        ...references,
        note: body.note ?? null,
        createdById: caller.userId,
        now: nowIso(deps.clock),
      });
    });
}

export async function editTransMemory(deps: AppDeps, caller: Caller, uid: string, body: EditTransMemoryBody): Promise<TransMemoryRow> {
  const row = await requireTransMemory(deps, caller, uid, 'transMemoryEditOther');
  const targetLangs = checkTargetLangs(row.sourceLang, body.targetLangs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const references = await resolveSetupReferences(trx, caller.organizationId, body);
      let ownerId = row.ownerId;
      if (body.owner) ownerId = await resolveOwner(trx, caller.organizationId, body.owner.id);
      return updateTransMemory(trx, row.id, { name: body.name, targetLangs, ...references, ownerId, note: body.note ?? null });
    });
}

async function resolveOwner(trx: Kysely<DB>, organizationId: Id, key: string): Promise<Id> {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'role'])
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('uid', '=', key), ...(/^\d{1,18}$/.test(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
  if (!user) throw errors.ReferenceNotFound({ what: 'user', key, keyName: 'id', field: 'owner' });
  if (user.role !== 'ADMIN' && user.role !== 'PROJECT_MANAGER') {
    throw errors.InvalidArguments({
      reason: 'The owner of a translation memory must be an ADMIN or a PROJECT_MANAGER.',
      details: [{ field: 'owner', message: 'not an ADMIN or PROJECT_MANAGER' }],
    });
  }
  return user.id;
}

export async function addTargetLanguage(deps: AppDeps, caller: Caller, uid: string, language: string): Promise<TransMemoryRow> {
  const row = await requireTransMemory(deps, caller, uid, 'transMemoryEditOther');
  const lang = checkTargetLangs(row.sourceLang, [language])[0]!;
  const langs = targetLangsOf(row);
  if (langs.includes(lang)) return row;
  return updateTransMemory(db(deps), row.id, { targetLangs: [...langs, lang] });
}

/** Deletes TMs the caller sees, all or none (404 naming the missing ones). */
export async function deleteTransMemories(deps: AppDeps, caller: Caller, uids: readonly string[]): Promise<void> {
  const rows: TransMemoryRow[] = [];
  const missing: string[] = [];
  for (const uid of new Set(uids)) {
    const row = await findVisibleTransMemory(db(deps), caller, uid);
    if (row) rows.push(row);
    else missing.push(uid);
  }
  if (missing.length) throw errors.ResourceNotFound({ what: 'Translation memory', uids: missing });
  if (rows.some((row) => !mayOnTransMemory(caller, row, 'transMemoryDeleteOther'))) {
    throw errors.AccessDenied({ reason: 'You may not delete a translation memory created by someone else (transMemoryDeleteOther).' });
  }
  await db(deps)
    .transaction()
    .execute((trx) =>
      deleteTransMemoryRows(
        trx,
        rows.map((r) => r.id),
      ),
    );
  forgetIndexes(
    deps,
    rows.map((r) => r.id),
  );
}

export async function listTransMemories(deps: AppDeps, caller: Caller, filter: TransMemoryFilter, page: PageRequest) {
  return listVisibleTransMemories(db(deps), caller, filter, page);
}

/** The target language a unit operation names, which must be one of the TM's. */
export function requireTargetLang(row: TransMemoryRow, field: string, code: string): string {
  const lang = assertLanguage(field, code);
  if (!targetLangsOf(row).includes(lang)) {
    throw errors.InvalidArguments({
      reason: `"${lang}" is not a target language of the translation memory.`,
      details: [{ field, message: `not one of ${targetLangsOf(row).join(', ') || 'its target languages'}` }],
    });
  }
  return lang;
}
