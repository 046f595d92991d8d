import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { resolveResourceOwner } from '../../identity/users/index.js';
import { resolveResourceReferences } from '../../organization-setup/setup-records/index.js';
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
      const references = await resolveResourceReferences(trx, caller.organizationId, body);
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
      const references = await resolveResourceReferences(trx, caller.organizationId, body);
      let ownerId = row.ownerId;
      if (body.owner) ownerId = await resolveResourceOwner(trx, caller.organizationId, body.owner.id, 'translation memory');
      return updateTransMemory(trx, row.id, { name: body.name, targetLangs, ...references, ownerId, note: body.note ?? null });
    });
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
