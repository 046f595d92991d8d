import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { resolveResourceOwner } from '../../identity/users/index.js';
import { resolveResourceReferences } from '../../organization-setup/setup-records/index.js';
import {
  deleteTermBaseRows,
  findVisibleTermBase,
  insertTermBase,
  langsOf,
  listVisibleTermBases,
  mayOnTermBase,
  updateTermBase,
} from './term-bases.repository.js';
import type { TermBaseFilter, TermBaseRight, TermBaseRow } from './term-bases.repository.js';
import { hasTerms, isAssigned } from './terms.repository.js';
import type { TermBaseEditBody } from './term-bases.schemas.js';

/** Rules of term base records: create, edit, delete (docs/terminology.md, "Records"). */

const db = (deps: AppDeps) => deps.database.db;

/** The term base the caller sees, or 404 (another organization's, a deleted one, one outside a manager's lists). */
export async function requireTermBase(deps: AppDeps, caller: Caller, uid: string, right?: TermBaseRight): Promise<TermBaseRow> {
  const row = await findVisibleTermBase(db(deps), caller, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Term base' });
  if (right && !mayOnTermBase(caller, row, right)) {
    throw errors.AccessDenied({ reason: `You may not do this to a term base created by someone else (${right}).` });
  }
  return row;
}

export async function createTermBase(deps: AppDeps, caller: Caller, body: TermBaseEditBody): Promise<TermBaseRow> {
  const langs = assertLanguages('langs', body.langs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const references = await resolveResourceReferences(trx, caller.organizationId, body);
      const ownerId = body.owner ? await resolveResourceOwner(trx, caller.organizationId, body.owner.id, 'term base') : caller.userId;
      return insertTermBase(trx, {
        organizationId: caller.organizationId,
        name: body.name,
        langs,
        ...references,
        ownerId,
        note: body.note ?? null,
        createdById: caller.userId,
        now: nowIso(deps.clock),
      });
    });
}

/**
 * Replaces the record. Languages may be added in any order; removing one is allowed only while the
 * term base has no terms at all and is in no project or template (TermBaseInvalidInput otherwise,
 * and nothing changes).
 */
export async function editTermBase(deps: AppDeps, caller: Caller, uid: string, body: TermBaseEditBody): Promise<TermBaseRow> {
  const row = await requireTermBase(deps, caller, uid, 'termBaseEditOther');
  const langs = assertLanguages('langs', body.langs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const references = await resolveResourceReferences(trx, caller.organizationId, body);
      const ownerId = body.owner ? await resolveResourceOwner(trx, caller.organizationId, body.owner.id, 'term base') : row.ownerId;
      const removed = langsOf(row).filter((lang) => !langs.includes(lang));
      if (removed.length) {
        if (await hasTerms(trx, row.id)) throw errors.TermBaseInvalidInput({ langs: removed, reason: 'terms' });
        if (await isAssigned(trx, row.id)) throw errors.TermBaseInvalidInput({ langs: removed, reason: 'assigned' });
      }
      return updateTermBase(trx, row.id, { name: body.name, langs, ...references, ownerId, note: body.note ?? null });
    });
}

export async function deleteTermBase(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await requireTermBase(deps, caller, uid, 'termBaseDeleteOther');
  await db(deps)
    .transaction()
    .execute((trx) => deleteTermBaseRows(trx, [row.id]));
}

export async function listTermBases(deps: AppDeps, caller: Caller, filter: TermBaseFilter, page: PageRequest) {
  return listVisibleTermBases(db(deps), caller, filter, page);
}
