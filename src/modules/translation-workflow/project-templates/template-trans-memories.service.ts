import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { toTransMemoryDtos } from '../../language-resources/translation-memories/index.js';
import type { TemplateRow } from '../kernel/index.js';
import {
  filteredRows,
  relevantTransMemories,
  replaceSettingRows,
  rowsOfContexts,
  settingDtos,
  settingRows,
  templateSettingsOwner,
} from '../job-trans-memories/index.js';
import type { RelevantQuery, SetTransMemoryContext, TransMemorySettingsQuery } from '../job-trans-memories/index.js';

/**
 * The translation memories of a project template: the same settings as a project's
 * (job-trans-memories, tm-settings.ts), copied into each project made from the template.
 * Editing them needs a source language and at least one target language on the template
 * (description, "Behaviour of other operations", point 5).
 */

export async function templateTransMemories(deps: AppDeps, template: TemplateRow, query: TransMemorySettingsQuery, version: 1 | 2 | 3) {
  const db = deps.database.db;
  const owner = await templateSettingsOwner(db, template);
  return settingDtos(db, owner, filteredRows(owner, await settingRows(db, owner), query), { v3: version === 3 });
}

/** Replaces the template's whole TM setting (400 when the template lacks a source or a target language); answers it in the v1/v2 shape. */
export async function setTemplateTransMemories(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  contexts: readonly SetTransMemoryContext[],
  prefix: string,
) {
  const db = deps.database.db;
  const owner = await templateSettingsOwner(db, template);
  if (owner.sourceLang === null || owner.targetLangs.length === 0) {
    const missing = owner.sourceLang === null ? 'sourceLang' : 'targetLangs';
    throw errors.InvalidArguments({
      reason:
        'The translation memories of a template can be edited only when the template has a source language and at least one target language.',
      details: [{ field: missing, message: `the template has no ${owner.sourceLang === null ? 'source language' : 'target language'}` }],
    });
  }
  const rows = await rowsOfContexts(db, owner, contexts, prefix);
  const now = deps.clock().toISOString();
  await db.transaction().execute(async (trx) => {
    await replaceSettingRows(trx, owner, rows);
    await trx
      .updateTable('projectTemplates')
      .set({ lastModifiedAt: now, lastModifiedById: caller.userId })
      .where('id', '=', template.id)
      .execute();
  });
  return settingDtos(db, owner, await settingRows(db, owner), { v3: false });
}

/** relevantTransMemories (template): the TMs that fit the template's languages (or `targetLangs`). */
export async function relevantTemplateTransMemories(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  query: RelevantQuery,
  page: PageRequest,
) {
  const db = deps.database.db;
  const owner = await templateSettingsOwner(db, template);
  const { rows, total } = await relevantTransMemories(db, caller, owner, query, page);
  return { content: await toTransMemoryDtos(db, caller.organizationId, rows), total };
}
