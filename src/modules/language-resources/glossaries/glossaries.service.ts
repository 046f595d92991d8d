import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { nowIso } from '../../../db/ids.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { resolveResourceOwner } from '../../identity/users/index.js';
import {
  bumpGlossaryVersion,
  deactivateOverlapping,
  deleteGlossaryEntries,
  deleteGlossaryRow,
  findEntriesByKeys,
  findGlossary,
  insertEntries,
  insertGlossary,
  langsOf,
  listGlossaryRows,
  lockGlossaries,
  lockGlossary,
  sourceKeyOf,
  updateEntryTarget,
  updateGlossary,
} from './glossaries.repository.js';
import type { GlossaryFilter, GlossaryRow, NewGlossaryEntry } from './glossaries.repository.js';
import type { GlossaryEditBody } from './glossaries.schemas.js';

/** Rules of glossaries: records, activation, entries (docs/terminology.md, "Glossaries (built)"). */

const db = (deps: AppDeps) => deps.database.db;

/** Source texts looked up (and entries inserted) per statement. */
const WRITE_CHUNK = 500;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The glossary of the caller's organization, or 404 (another organization's answers the same). */
export async function requireGlossary(deps: AppDeps, caller: Caller, uid: string): Promise<GlossaryRow> {
  const row = await findGlossary(db(deps), caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Glossary' });
  return row;
}

export function listGlossaries(deps: AppDeps, caller: Caller, filter: GlossaryFilter, page: PageRequest) {
  return listGlossaryRows(db(deps), caller.organizationId, filter, page);
}

/** A new glossary, inactive, without entries; its first language is its source language. */
export async function createGlossary(deps: AppDeps, caller: Caller, body: GlossaryEditBody): Promise<GlossaryRow> {
  const langs = assertLanguages('langs', body.langs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const ownerId = body.owner ? await resolveResourceOwner(trx, caller.organizationId, body.owner.id, 'glossary') : caller.userId;
      return insertGlossary(trx, {
        organizationId: caller.organizationId,
        name: body.name,
        langs,
        ownerId,
        createdById: caller.userId,
        now: nowIso(deps.clock),
      });
    });
}

/**
 * Replaces name and owner (kept when omitted) and adds languages: every language the glossary has
 * must be sent again (GlossaryLanguagesRemoved otherwise, and nothing changes); they keep their
 * order (the first stays the source language) and new ones are appended. An active glossary that
 * gains a language pair another active glossary has deactivates that one, in the same transaction
 * (the rule of activateGlossary).
 */
export async function editGlossary(deps: AppDeps, caller: Caller, uid: string, body: GlossaryEditBody): Promise<GlossaryRow> {
  const found = await requireGlossary(deps, caller, uid);
  const given = assertLanguages('langs', body.langs);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const rows = await lockGlossaries(trx, deps.database.dialect, caller.organizationId);
      const row = rows.find((r) => String(r.id) === String(found.id));
      if (!row) throw errors.ResourceNotFound({ what: 'Glossary' });
      const current = langsOf(row);
      const removed = current.filter((lang) => !given.includes(lang));
      if (removed.length) throw errors.GlossaryLanguagesRemoved({ langs: removed });
      const langs = [...current, ...given.filter((lang) => !current.includes(lang))];
      const ownerId = body.owner ? await resolveResourceOwner(trx, caller.organizationId, body.owner.id, 'glossary') : row.ownerId;
      if (bool(row.active) && langs.length > current.length) await deactivateOverlapping(trx, rows, langs, row.id);
      return updateGlossary(trx, row.id, { name: body.name, langs, ownerId });
    });
}

/**
 * Activates a glossary (deactivating, in the same transaction, every other active glossary of the
 * organization that shares a language pair with it: one active glossary per language pair), or
 * deactivates it.
 */
export async function activateGlossary(deps: AppDeps, caller: Caller, uid: string, active: boolean): Promise<GlossaryRow> {
  const found = await requireGlossary(deps, caller, uid);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const rows = await lockGlossaries(trx, deps.database.dialect, caller.organizationId);
      const row = rows.find((r) => String(r.id) === String(found.id));
      if (!row) throw errors.ResourceNotFound({ what: 'Glossary' });
      if (active) await deactivateOverlapping(trx, rows, langsOf(row), row.id);
      return updateGlossary(trx, row.id, { active });
    });
}

/** Deletes the glossary and its entries (`purge` or not: there is no recycle bin). */
export async function deleteGlossary(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await requireGlossary(deps, caller, uid);
  await db(deps)
    .transaction()
    .execute((trx) => deleteGlossaryRow(trx, row.id));
}

/** Removes every entry of the glossary; the glossary itself (languages, activation) stays. */
export async function purgeGlossary(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const found = await requireGlossary(deps, caller, uid);
  await db(deps)
    .transaction()
    .execute(async (trx) => {
      const row = await lockGlossary(trx, deps.database.dialect, found.id);
      if (!row) throw errors.ResourceNotFound({ what: 'Glossary' });
      if ((await deleteGlossaryEntries(trx, row.id)) > 0) await bumpGlossaryVersion(trx, row.id);
    });
}

/**
 * Writes what an upload read, in one transaction (all or nothing): per target language, new
 * entries are inserted, existing ones (same source text) take the file's target term when
 * `updateTerms`, else stay. Counts: entries created, and existing entries the file gave again
 * (updateTerms only; counted whether or not their target term changed).
 */
export async function writeGlossaryEntries(
  deps: AppDeps,
  glossaryId: GlossaryRow['id'],
  pairs: ReadonlyMap<string, ReadonlyMap<string, string>>,
  updateTerms: boolean,
): Promise<{ created: number; updated: number }> {
  const now = nowIso(deps.clock);
  return db(deps)
    .transaction()
    .execute(async (trx) => {
      const row = await lockGlossary(trx, deps.database.dialect, glossaryId);
      if (!row) throw errors.ResourceNotFound({ what: 'Glossary' });
      const sourceLang = langsOf(row)[0]!;
      let created = 0;
      let updated = 0;
      let changed = false;
      for (const [targetLang, byText] of pairs) {
        const sources = [...byText.keys()];
        for (let at = 0; at < sources.length; at += WRITE_CHUNK) {
          const chunk = sources.slice(at, at + WRITE_CHUNK).map((sourceText) => ({ sourceText, key: sourceKeyOf(sourceText) }));
          const found = await findEntriesByKeys(
            trx,
            row.id,
            sourceLang,
            targetLang,
            chunk.map(({ key }) => key),
          );
          const existing = new Map(found.map((entry) => [entry.sourceKey, entry]));
          const fresh: NewGlossaryEntry[] = [];
          for (const { sourceText, key } of chunk) {
            const targetText = byText.get(sourceText)!;
            const entry = existing.get(key);
            if (!entry) fresh.push({ sourceText, targetText });
            else if (updateTerms) {
              updated += 1;
              if (entry.targetText !== targetText) {
                await updateEntryTarget(trx, entry.id, targetText, now);
                changed = true;
              }
            }
          }
          await insertEntries(trx, row.id, sourceLang, targetLang, fresh, now);
          created += fresh.length;
          if (fresh.length) changed = true;
          await yieldToEventLoop();
        }
      }
      if (changed) await bumpGlossaryVersion(trx, row.id);
      return { created, updated };
    });
}
