import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { ProjectAccess, ProjectRow } from '../kernel/index.js';
import {
  emitProjectEvents,
  parseSettings,
  projectTargetLanguages,
  resolveVendor,
  resolveWorkflowSteps,
  writeSetting,
} from '../kernel/index.js';
import { appendWorkflowSteps, replaceTargetLanguages, setProjectVendor, touchProject, workflowStepIdsOf } from './projects.repository.js';
import type { IdReference } from './projects.schemas.js';
import { assertTargetLangs, normalizeDate } from './projects.service.js';

/**
 * Changes of a project's workflow steps, target languages, vendor and content group, on a
 * project the caller may edit (docs/projects.md). Each runs in one transaction that records who
 * changed the project and emits its events.
 */

/** Runs `work` on the project in one transaction that also records the change and emits `events`. */
async function changeProject(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  events: WebhookEvent[],
  work: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    await work(trx);
    await touchProject(trx, project.id, deps.clock().toISOString(), caller.userId);
    await emitProjectEvents(deps, trx, caller, project.id, events);
  });
  deps.taskWakeup.notify();
}

/** Appends the steps after the project's last level; a step the project already has is 400. */
export async function addWorkflowSteps(deps: AppDeps, caller: Caller, access: ProjectAccess, steps: readonly IdReference[]): Promise<void> {
  const { project } = access;
  await changeProject(deps, caller, project, ['PROJECT_METADATA_UPDATED'], async (trx) => {
    const stepIds = await resolveWorkflowSteps(trx, caller.organizationId, 'workflowSteps', steps);
    const existing = await workflowStepIdsOf(trx, project.id);
    const taken = stepIds.find((id) => existing.includes(id));
    if (taken)
      throw errors.InvalidArguments({
        reason: 'The project already has this workflow step.',
        details: [{ field: 'workflowSteps', message: `workflow step ${taken} is already in the project` }],
      });
    await appendWorkflowSteps(trx, project.id, stepIds);
  });
}

/** Adds the languages after the project's current ones (those it has already are ignored). */
export async function addTargetLanguages(deps: AppDeps, caller: Caller, access: ProjectAccess, langs: readonly string[]): Promise<void> {
  const { project } = access;
  await changeProject(deps, caller, project, ['PROJECT_METADATA_UPDATED'], async (trx) => {
    const added = assertTargetLangs(project.sourceLang, langs);
    const current = await projectTargetLanguages(trx, project.id);
    await replaceTargetLanguages(trx, project.id, [...current, ...added.filter((l) => !current.includes(l))]);
  });
}

/** Shares the project with a vendor of the organization (none: unshares it) and sets its due date when given. */
export async function assignVendor(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  input: { vendor?: IdReference | undefined; dateDue?: string | undefined },
): Promise<void> {
  const before = access.project;
  const vendorId = input.vendor ? await resolveVendor(deps.database.db, caller.organizationId, 'vendor', input.vendor) : null;
  const due = input.dateDue ? normalizeDate(input.dateDue) : undefined;
  const events: WebhookEvent[] = [];
  if (vendorId !== null && vendorId !== (before.vendorId ?? '')) events.push('SHARED_PROJECT_ASSIGNED');
  if (vendorId === null && before.vendorId !== null) events.push('PROJECT_UNSHARED');
  if (due !== undefined && due !== before.dateDue) events.push('PROJECT_DUE_DATE_CHANGED');
  await changeProject(deps, caller, before, events, (trx) => setProjectVendor(trx, before.id, vendorId, due));
}

export interface ContentGroupLink {
  uid: string;
  name: string | null;
}

/** The content group the project is linked to, or null. */
export function contentGroupOf(project: ProjectRow): ContentGroupLink | null {
  return (parseSettings(project.settings).contentGroup as ContentGroupLink | undefined) ?? null;
}

/** Links the project to the content group (replacing any earlier link). */
export async function linkContentGroup(deps: AppDeps, caller: Caller, access: ProjectAccess, group: ContentGroupLink): Promise<void> {
  const { project } = access;
  await changeProject(deps, caller, project, ['PROJECT_METADATA_UPDATED'], async (trx) => {
    await writeSetting(trx, project.id, 'contentGroup', group, deps.clock().toISOString(), caller.userId);
  });
}

/** Unlinks the project's content group; nothing happens (no event) when it has none. */
export async function unlinkContentGroup(deps: AppDeps, caller: Caller, access: ProjectAccess): Promise<void> {
  const { project } = access;
  if (parseSettings(project.settings).contentGroup === undefined) return;
  await changeProject(deps, caller, project, ['PROJECT_METADATA_UPDATED'], async (trx) => {
    await writeSetting(trx, project.id, 'contentGroup', null, deps.clock().toISOString(), caller.userId);
  });
}
