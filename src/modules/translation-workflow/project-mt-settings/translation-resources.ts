import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { termBasesByIds } from '../../language-resources/term-bases/index.js';
import { transMemoriesByIds } from '../../language-resources/translation-memories/index.js';
import { tbSettingRows } from '../job-term-bases/index.js';
import { effectiveRows, projectSettingsOwner, settingRows } from '../job-trans-memories/index.js';
import type { OwnerStep } from '../job-trans-memories/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { mtSettingsForTarget } from './project-mt-settings.service.js';
import type { TranslationResources } from './project-mt-settings.schemas.js';

/**
 * getTranslationResources: what a job is translated with. The MT settings of the job's target
 * language (mtSettingsForTarget), and the TMs and term bases of the project's settings context
 * that applies to the job's target language and workflow step (the most specific one that lists
 * any: job-trans-memories' `effectiveRows`), in their priority order; term bases only QA checks
 * are left out. `id` of a TM or term-base entry is the TM's or term base's id; `targetLang` and
 * `workflowStep` are those of the context (null: every language / every step).
 */
export async function translationResources(db: Kysely<DB>, project: ProjectRow, job: JobRow): Promise<TranslationResources> {
  const owner = await projectSettingsOwner(db, project);
  const stepId: Id | null = job.projectWorkflowStepId === null ? null : String(job.projectWorkflowStepId);
  const [mt, tmRows, tbRows] = await Promise.all([
    mtSettingsForTarget(db, project.id, job.targetLang),
    settingRows(db, owner).then((rows) => effectiveRows(rows, job.targetLang, stepId)),
    tbSettingRows(db, owner).then((rows) => effectiveRows(rows, job.targetLang, stepId).filter((r) => r.readMode || r.writeMode)),
  ]);
  const [tms, tbs] = await Promise.all([
    transMemoriesByIds(
      db,
      tmRows.map((r) => r.transMemoryId),
    ),
    termBasesByIds(
      db,
      tbRows.map((r) => r.termBaseId),
    ),
  ]);
  const tmById = new Map(tms.map((tm) => [String(tm.id), tm]));
  const tbById = new Map(tbs.map((tb) => [String(tb.id), tb]));
  const stepRef = (id: Id | null) => {
    const step: OwnerStep | undefined = id === null ? undefined : owner.steps.find((s) => String(s.id) === String(id));
    return step ? { id: String(step.workflowStepId), uid: step.uid } : null;
  };
  return {
    machineTranslateSettings:
      mt && String(mt.organizationId) === String(project.organizationId)
        ? { id: String(mt.id), uid: mt.uid, name: mt.name, type: mt.type }
        : null,
    translationMemories: tmRows.flatMap((row) => {
      const tm = tmById.get(String(row.transMemoryId));
      if (!tm) return [];
      return [
        {
          id: String(tm.id),
          transMem: { id: String(tm.id), uid: tm.uid },
          name: tm.name,
          workflowStep: stepRef(row.stepId),
          targetLang: row.targetLang,
          penalty: row.penalty,
          readMode: row.readMode,
        },
      ];
    }),
    termBases: tbRows.flatMap((row) => {
      const tb = tbById.get(String(row.termBaseId));
      if (!tb) return [];
      return [
        {
          id: String(tb.id),
          termBase: { id: String(tb.id), uid: tb.uid },
          name: tb.name,
          writeMode: row.writeMode,
          targetLang: row.targetLang,
          readMode: row.readMode,
          workflowStep: stepRef(row.stepId),
        },
      ];
    }),
  };
}
