import type { AppDeps } from '../../../deps.js';
import type { Caller } from '../../../http/access.js';
import type { ProjectAccess, SettingsKey } from '../kernel/index.js';
import { emitProjectEvents, projectReferenceNotFound, writeSetting } from '../kernel/index.js';
import { vendorUidsAmong } from './projects.repository.js';

/** Changes of a project's settings documents (docs/projects.md, "Settings"), on a project the caller may edit. */

/** Replaces one settings document of the project in one transaction that emits PROJECT_METADATA_UPDATED; answers the settings. */
export async function replaceProjectSetting(deps: AppDeps, caller: Caller, access: ProjectAccess, key: SettingsKey, value: unknown) {
  const { project } = access;
  const now = deps.clock().toISOString();
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const written = await writeSetting(trx, project.id, key, value, now, caller.userId);
    await emitProjectEvents(deps, trx, caller, project.id, ['PROJECT_METADATA_UPDATED']);
    return written;
  });
  deps.taskWakeup.notify();
  return settings;
}

/** Vendors named by `canChangeSharedJobDueDate` must be vendors of the organization (400 ReferenceNotFound). */
export async function assertVendorUids(deps: AppDeps, caller: Caller, refs: readonly { uid: string }[]): Promise<void> {
  const uids = [...new Set(refs.map((r) => r.uid))];
  const known = await vendorUidsAmong(deps.database.db, caller.organizationId, uids);
  const missing = uids.find((uid) => !known.has(uid));
  if (missing) throw projectReferenceNotFound('vendors.canChangeSharedJobDueDate', 'vendor', missing);
}
