import type { AppDeps } from '../../../deps.js';
import { num } from '../../../db/database.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';
import { requireTransMemory, toTransMemoryDtos } from '../../language-resources/translation-memories/index.js';
import type { ProjectAccess, ProjectRow } from '../kernel/index.js';
import { emitProjectEvents, projectVisibilityContext, visibleProjects } from '../kernel/index.js';
import {
  filteredRows,
  projectSettingsOwner,
  relevantTransMemories,
  replaceSettingRows,
  rowsOfContexts,
  settingDtos,
  settingRows,
} from '../job-trans-memories/index.js';
import type { RelevantQuery, SetTransMemoryContext, TransMemorySettingsQuery } from '../job-trans-memories/index.js';

/**
 * The translation memories of a project (docs/translation-memory.md, "Where it lives"): its
 * settings per target language and workflow step, the TMs relevant to it, and the projects that
 * name a TM. The rules of a setting are in job-trans-memories (tm-settings.ts).
 */

/** The project's settings (all, or the context that applies to `targetLang` / `wfStepUid`) in the shape of `version`. */
export async function projectTransMemories(deps: AppDeps, project: ProjectRow, query: TransMemorySettingsQuery, version: 1 | 2 | 3) {
  const db = deps.database.db;
  const owner = await projectSettingsOwner(db, project);
  const rows = filteredRows(owner, await settingRows(db, owner), query);
  return settingDtos(db, owner, rows, { v3: version === 3 });
}

/**
 * Replaces the project's whole TM setting by `contexts` (400 on the first fault, nothing written),
 * emitting PROJECT_METADATA_UPDATED; answers the new setting in the shape of `version`.
 */
export async function setProjectTransMemories(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  contexts: readonly SetTransMemoryContext[],
  prefix: string,
  version: 1 | 2 | 3,
) {
  const db = deps.database.db;
  const owner = await projectSettingsOwner(db, access.project);
  const rows = await rowsOfContexts(db, owner, contexts, prefix);
  await db.transaction().execute(async (trx) => {
    await replaceSettingRows(trx, owner, rows);
    await emitProjectEvents(deps, trx, caller, access.project.id, ['PROJECT_METADATA_UPDATED']);
  });
  deps.taskWakeup.notify();
  return settingDtos(db, owner, await settingRows(db, owner), { v3: version === 3 });
}

/** relevantTransMemories_1: the TMs that fit the project's languages (or `targetLangs`), as TransMemoryDto. */
export async function relevantProjectTransMemories(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  query: RelevantQuery,
  page: PageRequest,
) {
  const db = deps.database.db;
  const owner = await projectSettingsOwner(db, project);
  const { rows, total } = await relevantTransMemories(db, caller, owner, query, page);
  return { content: await toTransMemoryDtos(db, caller.organizationId, rows), total };
}

/** getRelatedProjects: the projects the caller sees whose settings name the TM (404 for a TM the caller does not see), newest first. */
export async function relatedProjects(deps: AppDeps, caller: Caller, transMemoryUid: string, page: PageRequest) {
  const db = deps.database.db;
  const tm = await requireTransMemory(deps, caller, transMemoryUid);
  const context = await projectVisibilityContext(db, caller);
  const base = db
    .selectFrom('projects')
    .where((eb) => visibleProjects(eb, caller, context))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('projectTransMemories')
          .select('projectTransMemories.id')
          .whereRef('projectTransMemories.projectId', '=', 'projects.id')
          .where('projectTransMemories.transMemoryId', '=', tm.id),
      ),
    );
  const { n } = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await base.selectAll('projects').orderBy('projects.id', 'desc').offset(offset).limit(limit).execute();
  return { rows, total: num(n) };
}
