import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { applyMtAssignmentUpdate, replaceAll, replacePerLanguage } from '../../../domain/machine-translation/index.js';
import type { MtAssignment, MtAssignmentUpdate } from '../../../domain/machine-translation/index.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { mtSettingsByIds, toMtSettingsDtos } from '../../language-resources/machine-translation/index.js';
import type { MtSettingsRow } from '../../language-resources/machine-translation/index.js';
import { emitProjectEvents, emitTemplateEvent, projectTargetLanguages, templateTargetLangs } from '../kernel/index.js';
import type { ProjectRow, TemplateRow } from '../kernel/index.js';
import { assignmentOf, assignmentRows, mtSettingsByKeys, writeAssignment } from './project-mt-settings.repository.js';
import type { MtOwner } from './project-mt-settings.repository.js';
import type {
  EditProjectMtSettingsBody,
  EditProjectMtSettingsPerLangBody,
  EditTemplateMtSettingsV3Body,
  MachineTranslateSettings,
  MtSettingsPerLanguageList,
  UidOrIdReference,
} from './project-mt-settings.schemas.js';

/**
 * The MT settings of projects and templates (docs/project-mt-settings.md, "MT settings"): for
 * every target language, or per target language, never both. Which form an edit
 * leaves is the domain's rule (src/domain/machine-translation, mt-assignment-rules.ts): the v1
 * operations replace the whole assignment ("This will erase all mtSettings per language" /
 * "This will erase mtSettings for project"), the v3 template operation and PATCH of a project
 * change only what they name, per-language values winning over the bulk value. Every settings
 * reference must be of the caller's organization (400 ReferenceNotFound naming the field) and every
 * language a target language of the record (400 naming the field); nothing is written otherwise.
 */

/** A project or template with what its MT settings are checked against. */
export interface MtSettingsOwner extends MtOwner {
  organizationId: Id;
  /** The record's target languages, in their order. */
  targetLangs: string[];
}

export async function projectMtOwner(db: Kysely<DB>, project: ProjectRow): Promise<MtSettingsOwner> {
  return {
    kind: 'project',
    id: project.id,
    organizationId: project.organizationId,
    targetLangs: await projectTargetLanguages(db, project.id),
  };
}

export function templateMtOwner(template: TemplateRow): MtSettingsOwner {
  return { kind: 'template', id: template.id, organizationId: template.organizationId, targetLangs: templateTargetLangs(template) };
}

const what = (owner: MtOwner) => (owner.kind === 'project' ? 'project' : 'project template');

// ---- answers

/** Spec `MachineTranslateSettingsDto` of settings rows (from the MT module's `MachineTranslateSettingsPbmDto`). */
async function settingsDtos(
  deps: AppDeps,
  organizationId: Id,
  rows: readonly MtSettingsRow[],
): Promise<Map<string, MachineTranslateSettings>> {
  const dtos = await toMtSettingsDtos(deps.database.db, organizationId, rows, deps.clock());
  return new Map(
    dtos.map((dto) => [
      dto.id,
      {
        id: dto.id,
        uid: dto.uid,
        baseName: dto.baseName,
        name: dto.name,
        type: dto.type,
        default_: dto.default_,
        includeTags: dto.includeTags,
        mtQualityEstimation: dto.mtQualityEstimation,
        enabled: true,
        args: dto.args,
        langs: dto.langs,
      },
    ]),
  );
}

/** MTSettingsPerLanguageListDto: one entry with `targetLang` null, or one per target language that has settings (in the record's order). */
export async function mtSettingsList(deps: AppDeps, owner: MtSettingsOwner): Promise<MtSettingsPerLanguageList> {
  const assignment = assignmentOf(await assignmentRows(deps.database.db, owner));
  const entries: { targetLang: string | null; settingsId: Id }[] =
    assignment.kind === 'none'
      ? []
      : assignment.kind === 'all'
        ? [{ targetLang: null, settingsId: assignment.settingsId }]
        : [...assignment.byLang]
            .flatMap(([targetLang, settingsId]) => (settingsId === null ? [] : [{ targetLang, settingsId }]))
            .sort((a, b) => langOrder(owner, a.targetLang) - langOrder(owner, b.targetLang) || a.targetLang.localeCompare(b.targetLang));
  const rows = (
    await mtSettingsByIds(
      deps.database.db,
      entries.map((e) => e.settingsId),
    )
  ).filter((row) => String(row.organizationId) === String(owner.organizationId));
  const dtos = await settingsDtos(deps, owner.organizationId, rows);
  return {
    mtSettingsPerLangList: entries.flatMap((e) => {
      const dto = dtos.get(String(e.settingsId));
      return dto ? [{ targetLang: e.targetLang, machineTranslateSettings: dto }] : [];
    }),
  };
}

function langOrder(owner: MtSettingsOwner, lang: string): number {
  const index = owner.targetLangs.findIndex((l) => l.toLowerCase() === lang.toLowerCase());
  return index < 0 ? owner.targetLangs.length : index;
}

// ---- resolving a body

/** A settings reference of a body: where it sits, and its key. */
interface SettingsRef {
  field: string;
  key: string;
  keyName: 'id' | 'uid';
}

/** The settings ids of `refs` (by key), all of the owner's organization, or 400 ReferenceNotFound naming the first that is not. */
async function resolveRefs(db: Kysely<DB>, owner: MtSettingsOwner, refs: readonly SettingsRef[]): Promise<Map<string, Id>> {
  const found = await mtSettingsByKeys(
    db,
    owner.organizationId,
    refs.map((r) => r.key),
  );
  const ids = new Map<string, Id>();
  for (const ref of refs) {
    const row = found.get(ref.key);
    if (!row)
      throw errors.ReferenceNotFound({ what: 'machine translation settings', key: ref.key, keyName: ref.keyName, field: ref.field });
    ids.set(ref.key, String(row.id));
  }
  return ids;
}

/** The owner's spelling of a target language named at `field`, or 400 when it is not one of the owner's. */
function ownTargetLang(owner: MtSettingsOwner, code: string, field: string): string {
  const lang = assertLanguage(field, code.trim());
  const own = owner.targetLangs.find((l) => l.toLowerCase() === lang.toLowerCase());
  if (own === undefined) {
    const reason = `"${code}" is not a target language of the ${what(owner)} (${owner.targetLangs.join(', ') || 'none'}).`;
    throw errors.InvalidArguments({ reason, details: [{ field, message: 'not a target language of the record' }] });
  }
  return own;
}

/** A `{uid}` / `{id}` reference of the v3 and PATCH bodies (the uid first). */
function refOf(ref: UidOrIdReference, field: string): SettingsRef {
  if (ref.uid !== undefined) return { field, key: ref.uid, keyName: 'uid' };
  if (ref.id !== undefined) return { field, key: ref.id, keyName: 'id' };
  throw errors.InvalidArguments({
    reason: `${field} must name the settings by uid.`,
    details: [{ field: `${field}.uid`, message: 'is required' }],
  });
}

/** The body of a bulk / per-language change, as PATCH of a project and the v3 template operation take it. */
export interface MtSettingsChange {
  /** undefined: not in the body; null: no settings for every language. */
  machineTranslateSettings?: UidOrIdReference | null | undefined;
  /** Only the listed target languages change; an entry without settings clears its language; an empty list counts as not given. */
  machineTranslateSettingsPerLangs?:
    readonly { targetLang: string; machineTranslateSettings?: UidOrIdReference | null | undefined }[] | undefined;
}

/** The domain's update for a change, every reference and language checked (400 on the first fault). */
export async function resolveMtSettingsChange(
  db: Kysely<DB>,
  owner: MtSettingsOwner,
  change: MtSettingsChange,
): Promise<MtAssignmentUpdate> {
  const bulk = change.machineTranslateSettings;
  const perLangs = change.machineTranslateSettingsPerLangs?.length ? change.machineTranslateSettingsPerLangs : undefined;
  const refs: SettingsRef[] = [];
  if (bulk) refs.push(refOf(bulk, 'machineTranslateSettings'));
  const langs = (perLangs ?? []).map((entry, i) => {
    const at = `machineTranslateSettingsPerLangs[${i}]`;
    const targetLang = ownTargetLang(owner, entry.targetLang, `${at}.targetLang`);
    const ref = entry.machineTranslateSettings ? refOf(entry.machineTranslateSettings, `${at}.machineTranslateSettings`) : null;
    if (ref) refs.push(ref);
    return { targetLang, ref };
  });
  const ids = await resolveRefs(db, owner, refs);
  const update: MtAssignmentUpdate = {};
  if (bulk !== undefined) update.bulk = bulk === null ? null : ids.get(refOf(bulk, 'machineTranslateSettings').key)!;
  if (perLangs) update.perLanguage = langs.map(({ targetLang, ref }) => ({ targetLang, settingsId: ref ? ids.get(ref.key)! : null }));
  return update;
}

const sameAssignment = (a: MtAssignment, b: MtAssignment) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const canonical = (a: MtAssignment) =>
  a.kind === 'perLanguage'
    ? [...a.byLang].filter(([, id]) => id !== null).sort(([x], [y]) => x.localeCompare(y))
    : a.kind === 'all'
      ? String(a.settingsId)
      : null;

/**
 * Applies `next` (a function of the stored assignment) in the caller's transaction; answers
 * whether the stored assignment changed. The write the projects module's PATCH makes too.
 */
export async function writeMtAssignment(
  trx: Kysely<DB>,
  owner: MtSettingsOwner,
  next: (current: MtAssignment) => MtAssignment,
): Promise<boolean> {
  const current = assignmentOf(await assignmentRows(trx, owner));
  const after = next(current);
  if (sameAssignment(current, after)) return false;
  await writeAssignment(trx, owner, after);
  return true;
}

/** The change of PATCH / v3, applied in the caller's transaction (see applyMtAssignmentUpdate); answers whether anything changed. */
export const applyMtSettingsUpdate = (trx: Kysely<DB>, owner: MtSettingsOwner, update: MtAssignmentUpdate) =>
  writeMtAssignment(trx, owner, (current) => applyMtAssignmentUpdate(current, update, owner.targetLangs));

// ---- the operations

/** Writes in one transaction, with the record's event when something changed; answers the list. */
async function write(deps: AppDeps, caller: Caller, owner: MtSettingsOwner, next: (current: MtAssignment) => MtAssignment) {
  await deps.database.db.transaction().execute(async (trx) => {
    if (!(await writeMtAssignment(trx, owner, next))) return;
    if (owner.kind === 'project') {
      await trx
        .updateTable('projects')
        .set({ lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
        .where('id', '=', owner.id)
        .execute();
      await emitProjectEvents(deps, trx, caller, owner.id, ['PROJECT_METADATA_UPDATED']);
    } else {
      await trx
        .updateTable('projectTemplates')
        .set({ lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
        .where('id', '=', owner.id)
        .execute();
      await emitTemplateEvent(deps, trx, caller, owner.id, 'PROJECT_TEMPLATE_UPDATED');
    }
  });
  deps.taskWakeup.notify();
  return mtSettingsList(deps, owner);
}

/** setMtSettingsForProject: one settings for every target language, or (without `machineTranslateSettings`) none; per-language settings go. */
export async function setMtSettingsForAll(deps: AppDeps, caller: Caller, owner: MtSettingsOwner, body: EditProjectMtSettingsBody) {
  const ref = body.machineTranslateSettings;
  const id = ref
    ? (await resolveRefs(deps.database.db, owner, [{ field: 'machineTranslateSettings', key: ref.id, keyName: 'id' }])).get(ref.id)!
    : null;
  return write(deps, caller, owner, () => replaceAll(id));
}

/** setMtSettingsPerLanguageForProject: exactly the listed target languages (an entry without settings: none); the all-languages settings go. */
export async function setMtSettingsPerLanguage(
  deps: AppDeps,
  caller: Caller,
  owner: MtSettingsOwner,
  body: EditProjectMtSettingsPerLangBody,
) {
  const refs: SettingsRef[] = [];
  const entries = (body.mtSettingsPerLangList ?? []).map((entry, i) => {
    const at = `mtSettingsPerLangList[${i}]`;
    const targetLang = ownTargetLang(owner, entry.targetLang, `${at}.targetLang`);
    const ref: SettingsRef | null = entry.machineTranslateSettings
      ? { field: `${at}.machineTranslateSettings`, key: entry.machineTranslateSettings.id, keyName: 'id' }
      : null;
    if (ref) refs.push(ref);
    return { targetLang, ref };
  });
  const ids = await resolveRefs(deps.database.db, owner, refs);
  const list = entries.map(({ targetLang, ref }) => ({ targetLang, settingsId: ref ? ids.get(ref.key)! : null }));
  return write(deps, caller, owner, () => replacePerLanguage(list));
}

/** PUT v3 …/projectTemplates/{uid}/mtSettings: the bulk and/or per-language change (per-language values win). */
export async function editMtSettingsV3(deps: AppDeps, caller: Caller, owner: MtSettingsOwner, body: EditTemplateMtSettingsV3Body) {
  const update = await resolveMtSettingsChange(deps.database.db, owner, body);
  return write(deps, caller, owner, (current) => applyMtAssignmentUpdate(current, update, owner.targetLangs));
}

// ---- what other modules read

/** The MT settings machine translation uses for a project's target language: its own entry, else the all-languages one; null = none. */
export async function mtSettingsForTarget(db: Kysely<DB>, projectId: Id, targetLang: string): Promise<MtSettingsRow | null> {
  const rows = await assignmentRows(db, { kind: 'project', id: projectId });
  const own = rows.find((r) => r.targetLang !== null && r.targetLang.toLowerCase() === targetLang.toLowerCase());
  const chosen = own ?? rows.find((r) => r.targetLang === null);
  if (!chosen) return null;
  const [row] = await mtSettingsByIds(db, [chosen.mtSettingsId]);
  return row ?? null;
}

/**
 * A project made from a template gets the template's MT settings (in the caller's transaction):
 * the all-languages settings as they are, per-language settings for the target languages the
 * project has (the others are left out).
 */
export async function copyTemplateMtAssignment(trx: Kysely<DB>, templateId: Id, projectId: Id): Promise<void> {
  const source = assignmentOf(await assignmentRows(trx, { kind: 'template', id: templateId }));
  const targetLangs = await projectTargetLanguages(trx, projectId);
  let copied: MtAssignment = source;
  if (source.kind === 'perLanguage') {
    const byLang = new Map<string, string | null>();
    for (const [lang, id] of source.byLang) {
      const own = targetLangs.find((l) => l.toLowerCase() === lang.toLowerCase());
      if (own !== undefined && id !== null) byLang.set(own, id);
    }
    copied = byLang.size ? { kind: 'perLanguage', byLang } : { kind: 'none' };
  }
  await writeAssignment(trx, { kind: 'project', id: projectId }, copied);
}
