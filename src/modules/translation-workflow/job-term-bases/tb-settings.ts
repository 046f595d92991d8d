import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { langsOf, termBasesByIds, termBasesByKeys, toTermBaseDtos } from '../../language-resources/term-bases/index.js';
import type { TermBaseRow } from '../../language-resources/term-bases/index.js';
import { effectiveRows, languagesMatch } from '../job-trans-memories/index.js';
import type { OwnerStep, SettingsOwner } from '../job-trans-memories/index.js';

/**
 * The term-base settings of projects and templates (docs/terminology.md, "Term bases of projects
 * and templates"): per context (a target language or all, and on templates a workflow step or all)
 * the term bases read, the one written (createTermByJob) and those QA checks, in an order that is
 * their priority. Stored in `project_term_bases` / `template_term_bases`, one row per term base and
 * context. The context that applies to a job is the most specific one that lists any term base,
 * as for TMs (job-trans-memories, `effectiveRows`). Languages match by family (`de` ~ `de_at`).
 */

/** At most this many term bases per context (Phrase's limit per project and language pair). */
export const MAX_TERM_BASES_PER_CONTEXT = 10;

export interface TbSettingRow {
  termBaseId: Id;
  targetLang: string | null;
  stepId: Id | null;
  readMode: boolean;
  writeMode: boolean;
  qualityAssurance: boolean;
  position: number;
}

export async function tbSettingRows(db: Kysely<DB>, owner: Pick<SettingsOwner, 'kind' | 'id'>): Promise<TbSettingRow[]> {
  const rows =
    owner.kind === 'project'
      ? (await db.selectFrom('projectTermBases').selectAll().where('projectId', '=', owner.id).orderBy('id').execute()).map((r) => ({
          ...r,
          stepId: r.projectWorkflowStepId,
        }))
      : (await db.selectFrom('templateTermBases').selectAll().where('templateId', '=', owner.id).orderBy('id').execute()).map((r) => ({
          ...r,
          stepId: r.templateWorkflowStepId,
        }));
  return rows.map((r) => ({
    termBaseId: String(r.termBaseId),
    targetLang: r.targetLang,
    stepId: r.stepId === null ? null : String(r.stepId),
    readMode: bool(r.readMode as number),
    writeMode: bool(r.writeMode as number),
    qualityAssurance: bool(r.qualityAssurance as number),
    position: Number(r.position),
  }));
}

/** Replaces the rows of one context (target language, step) by `rows`, in the caller's transaction. */
export async function replaceContext(
  trx: Kysely<DB>,
  owner: Pick<SettingsOwner, 'kind' | 'id'>,
  targetLang: string | null,
  stepId: Id | null,
  rows: readonly TbSettingRow[],
): Promise<void> {
  const values = rows.map((r) => ({
    termBaseId: r.termBaseId,
    targetLang: r.targetLang,
    readMode: r.readMode,
    writeMode: r.writeMode,
    qualityAssurance: r.qualityAssurance,
    position: r.position,
  }));
  if (owner.kind === 'project') {
    let del = trx.deleteFrom('projectTermBases').where('projectId', '=', owner.id);
    del = targetLang === null ? del.where('targetLang', 'is', null) : del.where('targetLang', '=', targetLang);
    del = stepId === null ? del.where('projectWorkflowStepId', 'is', null) : del.where('projectWorkflowStepId', '=', stepId);
    await del.execute();
    if (values.length) {
      await trx
        .insertInto('projectTermBases')
        .values(values.map((v) => ({ ...v, projectId: owner.id, projectWorkflowStepId: stepId })))
        .execute();
    }
  } else {
    let del = trx.deleteFrom('templateTermBases').where('templateId', '=', owner.id);
    del = targetLang === null ? del.where('targetLang', 'is', null) : del.where('targetLang', '=', targetLang);
    del = stepId === null ? del.where('templateWorkflowStepId', 'is', null) : del.where('templateWorkflowStepId', '=', stepId);
    await del.execute();
    if (values.length) {
      await trx
        .insertInto('templateTermBases')
        .values(values.map((v) => ({ ...v, templateId: owner.id, templateWorkflowStepId: stepId })))
        .execute();
    }
  }
}

/** The term base's languages that stand for `lang`: the same code, else those of its family. */
export function termBaseLangsFor(termBase: Pick<TermBaseRow, 'langs'>, lang: string): string[] {
  const langs = langsOf(termBase);
  const same = langs.filter((l) => languagesMatch(l, lang, true));
  return same.length ? same : langs.filter((l) => languagesMatch(l, lang));
}

export interface SetTermBasesBody {
  readTermBases?: { id: string }[] | undefined;
  writeTermBase?: { id: string } | undefined;
  qualityAssuranceTermBases?: { id: string }[] | undefined;
  targetLang?: string | undefined;
  workflowStep?: { id: string } | undefined;
}

const invalid = (field: string, reason: string) => errors.InvalidArguments({ reason, details: [{ field, message: reason }] });

/**
 * The context and rows a SetTermBaseDto describes, checked against the owner (400 on the first
 * fault, nothing written): every term base of the organization (ReferenceNotFound), holding a
 * language of the owner's source language or of the context's target language(s); `targetLang` a
 * target language of the owner; `workflowStep` (templates) one of its steps; at most
 * MAX_TERM_BASES_PER_CONTEXT term bases. The order is the read list's, then the write term base,
 * then the QA list's.
 */
export async function contextOfBody(
  db: Kysely<DB>,
  owner: SettingsOwner,
  body: SetTermBasesBody,
): Promise<{ targetLang: string | null; step: OwnerStep | null; rows: TbSettingRow[] }> {
  const what = owner.kind === 'project' ? 'project' : 'project template';
  let targetLang: string | null = null;
  if (body.targetLang != null && body.targetLang.trim() !== '') {
    const code = assertLanguage('targetLang', body.targetLang.trim());
    targetLang = owner.targetLangs.find((l) => l.toLowerCase() === code.toLowerCase()) ?? null;
    if (targetLang === null) throw invalid('targetLang', `"${code}" is not a target language of the ${what}.`);
  }
  let step: OwnerStep | null = null;
  if (body.workflowStep) {
    const key = body.workflowStep.id;
    step = owner.steps.find((s) => s.uid === key || String(s.workflowStepId) === key) ?? null;
    if (!step) throw errors.ReferenceNotFound({ what: `workflow step of the ${what}`, key, keyName: 'id', field: 'workflowStep' });
  }
  const read = body.readTermBases ?? [];
  const qa = body.qualityAssuranceTermBases ?? [];
  const keys = [...read, ...(body.writeTermBase ? [body.writeTermBase] : []), ...qa].map((r) => r.id);
  const found = await termBasesByKeys(db, owner.organizationId, keys);
  const byKey = new Map<string, TermBaseRow>();
  for (const tb of found) {
    byKey.set(tb.uid, tb);
    byKey.set(String(tb.id), tb);
  }
  const rows = new Map<string, TbSettingRow>();
  const wanted = targetLang === null ? owner.targetLangs : [targetLang];
  const take = (field: string, key: string) => {
    const tb = byKey.get(key);
    if (!tb) throw errors.ReferenceNotFound({ what: 'term base', key, keyName: 'id', field });
    const fits = [owner.sourceLang, ...wanted].some((lang) => lang !== null && termBaseLangsFor(tb, lang).length > 0);
    if (!fits) {
      throw invalid(
        field,
        `Term base "${tb.name}" (${langsOf(tb).join(', ')}) has none of the ${what}'s languages (${[owner.sourceLang, ...wanted].filter(Boolean).join(', ')}).`,
      );
    }
    let row = rows.get(String(tb.id));
    if (!row) {
      row = {
        termBaseId: String(tb.id),
        targetLang,
        stepId: step?.id ?? null,
        readMode: false,
        writeMode: false,
        qualityAssurance: false,
        position: rows.size,
      };
      rows.set(String(tb.id), row);
    }
    return row;
  };
  for (const [i, ref] of read.entries()) take(`readTermBases[${i}]`, ref.id).readMode = true;
  if (body.writeTermBase) take('writeTermBase', body.writeTermBase.id).writeMode = true;
  for (const [i, ref] of qa.entries()) take(`qualityAssuranceTermBases[${i}]`, ref.id).qualityAssurance = true;
  if (rows.size > MAX_TERM_BASES_PER_CONTEXT) {
    throw invalid('readTermBases', `At most ${MAX_TERM_BASES_PER_CONTEXT} term bases may be set for one target language.`);
  }
  return { targetLang, step, rows: [...rows.values()] };
}

/** The settings in the published shape (ProjectTermBaseDto / ProjectTemplateTermBaseDto); rows of deleted term bases are left out. */
export async function tbSettingDtos(db: Kysely<DB>, owner: SettingsOwner, rows: readonly TbSettingRow[]) {
  const termBases = await termBasesByIds(
    db,
    rows.map((r) => r.termBaseId),
  );
  const dtos = await toTermBaseDtos(db, owner.organizationId, termBases);
  const byId = new Map(termBases.map((tb, i) => [String(tb.id), dtos[i]!]));
  const stepOf = (id: Id | null) => (id === null ? undefined : owner.steps.find((s) => String(s.id) === String(id)));
  return {
    termBases: [...rows]
      .sort((a, b) => (a.targetLang ?? '').localeCompare(b.targetLang ?? '') || a.position - b.position)
      .flatMap((row) => {
        const termBase = byId.get(row.termBaseId);
        if (!termBase) return [];
        const step = stepOf(row.stepId);
        return [
          {
            targetLocale: row.targetLang,
            workflowStep: step
              ? { id: String(step.workflowStepId), uid: step.uid, name: step.name, order: step.orderIndex, lqaEnabled: step.lqaEnabled }
              : null,
            readMode: row.readMode,
            writeMode: row.writeMode,
            termBase,
            qualityAssurance: row.qualityAssurance,
          },
        ];
      }),
  };
}

/** The term bases of the context that applies to a target language and step, with `mode` enabled, by priority. */
export async function contextTermBases(
  db: Kysely<DB>,
  owner: Pick<SettingsOwner, 'kind' | 'id'>,
  lang: string,
  stepId: Id | null,
  mode: 'read' | 'write' | 'qa',
): Promise<TermBaseRow[]> {
  const rows = effectiveRows(await tbSettingRows(db, owner), lang, stepId).filter((r) =>
    mode === 'read' ? r.readMode : mode === 'write' ? r.writeMode : r.qualityAssurance,
  );
  const termBases = new Map(
    (
      await termBasesByIds(
        db,
        rows.map((r) => r.termBaseId),
      )
    ).map((tb) => [String(tb.id), tb]),
  );
  return rows.flatMap((row) => termBases.get(row.termBaseId) ?? []);
}

/**
 * Copies a template's term-base settings into a project made from it (in the caller's
 * transaction): contexts of a target language or step the project does not have are left out.
 */
export async function copyTemplateTermBases(trx: Kysely<DB>, templateOwner: SettingsOwner, projectOwner: SettingsOwner): Promise<void> {
  const rows = await tbSettingRows(trx, templateOwner);
  const copied: TbSettingRow[] = [];
  for (const row of rows) {
    let targetLang: string | null = null;
    if (row.targetLang !== null) {
      targetLang = projectOwner.targetLangs.find((l) => l.toLowerCase() === row.targetLang!.toLowerCase()) ?? null;
      if (targetLang === null) continue;
    }
    let stepId: Id | null = null;
    if (row.stepId !== null) {
      const templateStep = templateOwner.steps.find((s) => String(s.id) === String(row.stepId));
      const projectStep = templateStep && projectOwner.steps.find((s) => String(s.workflowStepId) === String(templateStep.workflowStepId));
      if (!projectStep) continue;
      stepId = projectStep.id;
    }
    copied.push({ ...row, targetLang, stepId });
  }
  const contexts = new Map<string, TbSettingRow[]>();
  for (const row of copied) {
    const key = `${row.targetLang ?? ''}\u0000${row.stepId ?? ''}`;
    const list = contexts.get(key);
    if (list) list.push(row);
    else contexts.set(key, [row]);
  }
  for (const rowsOfContext of contexts.values()) {
    const { targetLang, stepId } = rowsOfContext[0]!;
    await replaceContext(trx, projectOwner, targetLang, stepId, rowsOfContext);
  }
}
