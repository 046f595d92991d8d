import type { Insertable, Kysely } from 'kysely';
import type { Static } from 'typebox';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ProjectTransMemoriesTable } from '../../../db/tables/translation-memories.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import {
  targetLangsOf,
  toTransMemoryDtos,
  transMemoriesByIds,
  transMemoriesByUids,
  withoutOwner,
} from '../../language-resources/translation-memories/index.js';
import type { SearchTarget, TransMemoryRow, TransMemorySchema } from '../../language-resources/translation-memories/index.js';
import type { ProjectRow, TemplateRow } from '../kernel/index.js';
import { projectTargetLanguages, templateTargetLangs } from '../kernel/index.js';
import type { SetTransMemoryContext, TransMemorySettingsQuery } from './tm-settings.schemas.js';

/**
 * The TM settings of projects and templates (docs/translation-memory.md, "Where it lives"): per
 * context (a target language or all, a workflow step or all) an ordered list of TMs with read,
 * write, penalty and applyPenaltyTo101Only. Stored in `project_trans_memories` and
 * `template_trans_memories`, one row per TM and context.
 *
 * Which context applies to a target language L and a step S: the most specific one that lists any
 * TM, in the order (L, S), (L, all steps), (all languages, S), (all languages, all steps). A
 * context left empty therefore falls back to the more general one.
 *
 * Languages match by family unless said otherwise: `de` and `de_at` are one family (the code
 * before the first `_`), so a TM of `en_us` → `de_at` fits a project of `en` → `de`.
 */

/** A workflow step of a project or template, as settings name it. */
export interface OwnerStep {
  /** The project's (or template's) step row. */
  id: Id;
  /** The organization's workflow step (its uid is what bodies name). */
  workflowStepId: Id;
  uid: string;
  name: string;
  orderIndex: number;
  lqaEnabled: boolean;
  level: number;
}

/** A project or template whose TM settings are read or written. */
export interface SettingsOwner {
  kind: 'project' | 'template';
  id: Id;
  organizationId: Id;
  sourceLang: string | null;
  targetLangs: string[];
  steps: OwnerStep[];
}

/** One TM in one context. */
export interface SettingRow {
  transMemoryId: Id;
  targetLang: string | null;
  /** The owner's step row (project_workflow_steps / template_workflow_steps), null = every step. */
  stepId: Id | null;
  readMode: boolean;
  writeMode: boolean;
  penalty: number;
  applyPenaltyTo101Only: boolean;
  position: number;
  orderEnabled: boolean;
}

// ---- languages

/** The language family of a code: what comes before the first `_` (`de_at` → `de`). */
export const languageFamily = (code: string) => code.toLowerCase().split('_')[0]!;
/** Same language, or (not strict) same family. */
export const languagesMatch = (a: string, b: string, strict = false) =>
  a.toLowerCase() === b.toLowerCase() || (!strict && languageFamily(a) === languageFamily(b));

/** The TM's target language that stands for `lang`: the same code, else the first of its family; null if none. */
export function transMemoryLangFor(tm: Pick<TransMemoryRow, 'targetLangs'>, lang: string): string | null {
  const langs = targetLangsOf(tm);
  return langs.find((l) => languagesMatch(l, lang, true)) ?? langs.find((l) => languagesMatch(l, lang)) ?? null;
}

/** The TM target languages a search for `lang` reads: the code itself and its family, over the given TMs. */
export function searchLangsFor(tms: readonly Pick<TransMemoryRow, 'targetLangs'>[], lang: string): string[] {
  const found = new Set<string>([lang]);
  for (const tm of tms) for (const l of targetLangsOf(tm)) if (languagesMatch(l, lang)) found.add(l);
  return [...found];
}

// ---- owners

export async function projectSettingsOwner(db: Kysely<DB>, project: ProjectRow): Promise<SettingsOwner> {
  const steps = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select([
      'projectWorkflowSteps.id',
      'projectWorkflowSteps.workflowStepId',
      'projectWorkflowSteps.workflowLevel',
      'workflowSteps.uid',
      'workflowSteps.name',
      'workflowSteps.orderIndex',
      'workflowSteps.lqaEnabled',
    ])
    .where('projectWorkflowSteps.projectId', '=', project.id)
    .orderBy('projectWorkflowSteps.workflowLevel')
    .execute();
  return {
    kind: 'project',
    id: project.id,
    organizationId: project.organizationId,
    sourceLang: project.sourceLang,
    targetLangs: await projectTargetLanguages(db, project.id),
    steps: steps.map((s) => ({
      id: s.id,
      workflowStepId: s.workflowStepId,
      uid: s.uid,
      name: s.name,
      orderIndex: Number(s.orderIndex),
      lqaEnabled: bool(s.lqaEnabled),
      level: Number(s.workflowLevel),
    })),
  };
}

export async function templateSettingsOwner(db: Kysely<DB>, template: TemplateRow): Promise<SettingsOwner> {
  const steps = await db
    .selectFrom('templateWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'templateWorkflowSteps.workflowStepId')
    .select([
      'templateWorkflowSteps.id',
      'templateWorkflowSteps.workflowStepId',
      'templateWorkflowSteps.workflowLevel',
      'workflowSteps.uid',
      'workflowSteps.name',
      'workflowSteps.orderIndex',
      'workflowSteps.lqaEnabled',
    ])
    .where('templateWorkflowSteps.templateId', '=', template.id)
    .orderBy('templateWorkflowSteps.workflowLevel')
    .execute();
  return {
    kind: 'template',
    id: template.id,
    organizationId: template.organizationId,
    sourceLang: template.sourceLang,
    targetLangs: templateTargetLangs(template),
    steps: steps.map((s) => ({
      id: s.id,
      workflowStepId: s.workflowStepId,
      uid: s.uid,
      name: s.name,
      orderIndex: Number(s.orderIndex),
      lqaEnabled: bool(s.lqaEnabled),
      level: Number(s.workflowLevel),
    })),
  };
}

// ---- rows

interface StoredRow {
  transMemoryId: Id;
  targetLang: string | null;
  readMode: unknown;
  writeMode: unknown;
  penalty: number | string;
  applyPenaltyTo101Only: unknown;
  position: number | string;
  orderEnabled: unknown;
}

const fromStored = (row: StoredRow, stepId: Id | null): SettingRow => ({
  transMemoryId: row.transMemoryId,
  targetLang: row.targetLang,
  stepId,
  readMode: bool(row.readMode as number),
  writeMode: bool(row.writeMode as number),
  penalty: Number(row.penalty),
  applyPenaltyTo101Only: bool(row.applyPenaltyTo101Only as number),
  position: Number(row.position),
  orderEnabled: bool(row.orderEnabled as number),
});

/** The owner's settings, in the order they were written (context by context, by position). */
export async function settingRows(db: Kysely<DB>, owner: Pick<SettingsOwner, 'kind' | 'id'>): Promise<SettingRow[]> {
  if (owner.kind === 'project') {
    const rows = await db.selectFrom('projectTransMemories').selectAll().where('projectId', '=', owner.id).orderBy('id').execute();
    return rows.map((r) => fromStored(r, r.projectWorkflowStepId));
  }
  const rows = await db.selectFrom('templateTransMemories').selectAll().where('templateId', '=', owner.id).orderBy('id').execute();
  return rows.map((r) => fromStored(r, r.templateWorkflowStepId));
}

/** Replaces the owner's whole settings by `rows`, in the caller's transaction. */
export async function replaceSettingRows(
  trx: Kysely<DB>,
  owner: Pick<SettingsOwner, 'kind' | 'id'>,
  rows: readonly SettingRow[],
): Promise<void> {
  const values = rows.map((r) => ({
    transMemoryId: r.transMemoryId,
    targetLang: r.targetLang,
    readMode: r.readMode,
    writeMode: r.writeMode,
    penalty: r.penalty,
    applyPenaltyTo101Only: r.applyPenaltyTo101Only,
    position: r.position,
    orderEnabled: r.orderEnabled,
  })) satisfies Omit<Insertable<ProjectTransMemoriesTable>, 'projectId'>[];
  if (owner.kind === 'project') {
    await trx.deleteFrom('projectTransMemories').where('projectId', '=', owner.id).execute();
    if (values.length) {
      await trx
        .insertInto('projectTransMemories')
        .values(values.map((v, i) => ({ ...v, projectId: owner.id, projectWorkflowStepId: rows[i]!.stepId })))
        .execute();
    }
  } else {
    await trx.deleteFrom('templateTransMemories').where('templateId', '=', owner.id).execute();
    if (values.length) {
      await trx
        .insertInto('templateTransMemories')
        .values(values.map((v, i) => ({ ...v, templateId: owner.id, templateWorkflowStepId: rows[i]!.stepId })))
        .execute();
    }
  }
}

/**
 * The rows of the context that applies to `lang` and `stepId` (see above), by position; also the
 * rule of the term-base settings (job-term-bases).
 */
export function effectiveRows<R extends Pick<SettingRow, 'targetLang' | 'stepId' | 'position'>>(
  rows: readonly R[],
  lang: string | null,
  stepId: Id | null,
): R[] {
  const contexts: [string | null, Id | null][] = [];
  if (lang !== null && stepId !== null) contexts.push([lang, stepId]);
  if (lang !== null) contexts.push([lang, null]);
  if (stepId !== null) contexts.push([null, stepId]);
  contexts.push([null, null]);
  for (const [l, s] of contexts) {
    const found = rows.filter((r) => (r.targetLang ?? null) === l && String(r.stepId ?? '') === String(s ?? ''));
    if (found.length) return [...found].sort((a, b) => a.position - b.position);
  }
  return [];
}

/**
 * The rows a GET answers: every row without filters; with `targetLang` and/or `wfStepUid`, the
 * context that applies to them (a language or step the owner does not have: none).
 */
export function filteredRows(owner: SettingsOwner, rows: readonly SettingRow[], query: TransMemorySettingsQuery): SettingRow[] {
  const lang = query.targetLang?.trim() ? query.targetLang.trim().toLowerCase() : null;
  const stepUid = query.wfStepUid?.trim() ? query.wfStepUid.trim() : null;
  if (lang === null && stepUid === null) return [...rows];
  const ownLang = lang === null ? null : (owner.targetLangs.find((l) => l.toLowerCase() === lang) ?? undefined);
  const step = stepUid === null ? null : (owner.steps.find((s) => s.uid === stepUid || String(s.workflowStepId) === stepUid) ?? undefined);
  if (ownLang === undefined || step === undefined) return [];
  return effectiveRows(rows, ownLang, step?.id ?? null);
}

// ---- validation of a new setting

const invalid = (field: string, reason: string) => errors.InvalidArguments({ reason, details: [{ field, message: reason }] });

/**
 * The rows `contexts` describe, checked against the owner (400 on the first fault): each TM must
 * be a TM of the organization (ReferenceNotFound), of the owner's source language, and have the
 * context's target language (or, for "all languages", one of the owner's) among its target
 * languages; `targetLang` must be a target language of the owner and `workflowStep` one of its
 * steps; a context appears once; a TM appears once per context; `writeMode` needs `readMode`;
 * at most 2 write TMs per context. `order` gives the position (default: the place in the list).
 */
export async function rowsOfContexts(
  db: Kysely<DB>,
  owner: SettingsOwner,
  contexts: readonly SetTransMemoryContext[],
  prefix: string,
): Promise<SettingRow[]> {
  const what = owner.kind === 'project' ? 'project' : 'project template';
  const uids = contexts.flatMap((c) => c.transMemories.map((t) => t.transMemory.uid));
  const tms = new Map((await transMemoriesByUids(db, owner.organizationId, uids)).map((tm) => [tm.uid, tm]));
  const rows: SettingRow[] = [];
  const seenContexts = new Set<string>();
  contexts.forEach((context, c) => {
    const at = prefix ? `${prefix}[${c}]` : '';
    const field = (name: string) => (at ? `${at}.${name}` : name);
    let targetLang: string | null = null;
    if (context.targetLang != null && context.targetLang.trim() !== '') {
      const code = assertLanguage(field('targetLang'), context.targetLang.trim());
      targetLang = owner.targetLangs.find((l) => l.toLowerCase() === code.toLowerCase()) ?? null;
      if (targetLang === null) throw invalid(field('targetLang'), `"${code}" is not a target language of the ${what}.`);
    }
    let step: OwnerStep | null = null;
    if (context.workflowStep) {
      const key = context.workflowStep.uid;
      step = owner.steps.find((s) => s.uid === key || String(s.workflowStepId) === key) ?? null;
      if (!step) throw errors.ReferenceNotFound({ what: `workflow step of the ${what}`, key, field: field('workflowStep') });
    }
    const contextKey = `${targetLang ?? ''}\u0000${step?.id ?? ''}`;
    if (seenContexts.has(contextKey)) throw invalid(at || 'dataPerContext', 'Each target language and workflow step may be set once.');
    seenContexts.add(contextKey);
    const seenTms = new Set<string>();
    let writers = 0;
    context.transMemories.forEach((item, i) => {
      const itemField = (name: string) => field(`transMemories[${i}].${name}`);
      const tm = tms.get(item.transMemory.uid);
      if (!tm) throw errors.ReferenceNotFound({ what: 'translation memory', key: item.transMemory.uid, field: itemField('transMemory') });
      if (seenTms.has(tm.uid)) throw invalid(itemField('transMemory'), `The translation memory ${tm.uid} is listed twice for one context.`);
      seenTms.add(tm.uid);
      if (owner.sourceLang === null || !languagesMatch(tm.sourceLang, owner.sourceLang)) {
        throw invalid(
          itemField('transMemory'),
          `The source language of translation memory "${tm.name}" (${tm.sourceLang}) is not the ${what}'s (${owner.sourceLang ?? 'none'}).`,
        );
      }
      const wanted = targetLang === null ? owner.targetLangs : [targetLang];
      if (!wanted.some((lang) => transMemoryLangFor(tm, lang) !== null)) {
        throw invalid(
          itemField('transMemory'),
          `Translation memory "${tm.name}" has none of the target languages ${wanted.join(', ') || '(none)'} among its target languages (${targetLangsOf(tm).join(', ')}).`,
        );
      }
      const readMode = item.readMode === true;
      const writeMode = item.writeMode === true;
      if (writeMode && !readMode)
        throw invalid(itemField('writeMode'), 'writeMode can be set only for a translation memory with readMode.');
      if (writeMode && ++writers > 2)
        throw invalid(itemField('writeMode'), 'At most 2 translation memories may be written to per context.');
      rows.push({
        transMemoryId: tm.id,
        targetLang,
        stepId: step?.id ?? null,
        readMode,
        writeMode,
        penalty: item.penalty ?? 0,
        applyPenaltyTo101Only: item.applyPenaltyTo101Only === true,
        position: item.order ?? i,
        orderEnabled: context.orderEnabled === true,
      });
    });
  });
  return rows;
}

// ---- answers

/** The settings in the published shape: v3 without the TM's owner, v1/v2 with it; rows of deleted TMs are left out. */
export async function settingDtos(db: Kysely<DB>, owner: SettingsOwner, rows: readonly SettingRow[], options: { v3: boolean }) {
  const tmRows = await transMemoriesByIds(
    db,
    rows.map((r) => r.transMemoryId),
  );
  const dtos = await toTransMemoryDtos(db, owner.organizationId, tmRows);
  const byId = new Map(tmRows.map((tm, i) => [String(tm.id), dtos[i]!]));
  const stepOf = (id: Id | null) => (id === null ? undefined : owner.steps.find((s) => String(s.id) === String(id)));
  return {
    transMemories: rows.flatMap((row) => {
      const tm = byId.get(String(row.transMemoryId));
      if (!tm) return [];
      const step = stepOf(row.stepId);
      return [
        {
          // v3 shows no owner; typed as the full DTO so that one function serves every version's schema.
          transMemory: (options.v3 ? withoutOwner(tm) : tm) as Static<typeof TransMemorySchema>,
          targetLocale: row.targetLang,
          workflowStep: step
            ? { id: String(step.workflowStepId), uid: step.uid, name: step.name, order: step.orderIndex, lqaEnabled: step.lqaEnabled }
            : null,
          readMode: row.readMode,
          writeMode: row.writeMode,
          penalty: row.penalty,
          applyPenaltyTo101Only: row.applyPenaltyTo101Only,
          order: row.position,
        },
      ];
    }),
  };
}

// ---- what searches read and write-back writes

/**
 * The project's TMs for a target language and a workflow step (the project's step row, or null),
 * as search targets: those with `mode` enabled in the context that applies, with their penalty and
 * (where the context enables ordering) their order; 0 for all otherwise, so ties go to the most recent.
 */
export async function projectTransMemoryTargets(
  db: Kysely<DB>,
  projectId: Id,
  lang: string,
  stepId: Id | null,
  mode: 'read' | 'write',
): Promise<SearchTarget[]> {
  const rows = effectiveRows(await settingRows(db, { kind: 'project', id: projectId }), lang, stepId).filter((r) =>
    mode === 'read' ? r.readMode : r.writeMode,
  );
  if (rows.length === 0) return [];
  const tms = new Map(
    (
      await transMemoriesByIds(
        db,
        rows.map((r) => r.transMemoryId),
      )
    ).map((tm) => [String(tm.id), tm]),
  );
  return rows.flatMap((row) => {
    const tm = tms.get(String(row.transMemoryId));
    return tm
      ? [{ tm, penalty: row.penalty, applyPenaltyTo101Only: row.applyPenaltyTo101Only, order: row.orderEnabled ? row.position : 0 }]
      : [];
  });
}

/**
 * Copies a template's TM settings into a project made from it (in the caller's transaction):
 * contexts of a target language the project does not have, or of a step it does not have, are
 * left out, as are TMs that no longer fit the project's languages (its source language may differ
 * from the template's).
 */
export async function copyTemplateSettings(trx: Kysely<DB>, template: TemplateRow, project: ProjectRow): Promise<void> {
  const rows = await settingRows(trx, { kind: 'template', id: template.id });
  if (rows.length === 0) return;
  const [templateOwner, projectOwner] = await Promise.all([templateSettingsOwner(trx, template), projectSettingsOwner(trx, project)]);
  const tms = new Map(
    (
      await transMemoriesByIds(
        trx,
        rows.map((r) => r.transMemoryId),
      )
    ).map((tm) => [String(tm.id), tm]),
  );
  const copied: SettingRow[] = [];
  for (const row of rows) {
    const tm = tms.get(String(row.transMemoryId));
    if (!tm || !languagesMatch(tm.sourceLang, project.sourceLang)) continue;
    let targetLang: string | null = null;
    if (row.targetLang !== null) {
      targetLang = projectOwner.targetLangs.find((l) => l.toLowerCase() === row.targetLang!.toLowerCase()) ?? null;
      if (targetLang === null) continue;
    }
    const wanted = targetLang === null ? projectOwner.targetLangs : [targetLang];
    if (!wanted.some((lang) => transMemoryLangFor(tm, lang) !== null)) continue;
    let stepId: Id | null = null;
    if (row.stepId !== null) {
      const templateStep = templateOwner.steps.find((s) => String(s.id) === String(row.stepId));
      const projectStep = templateStep && projectOwner.steps.find((s) => String(s.workflowStepId) === String(templateStep.workflowStepId));
      if (!projectStep) continue;
      stepId = projectStep.id;
    }
    copied.push({ ...row, targetLang, stepId });
  }
  await replaceSettingRows(trx, projectOwner, copied);
}
