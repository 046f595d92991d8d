import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { ProjectAccess } from '../kernel/index.js';
import type { ReferenceFileRow } from './reference-files.repository.js';

/**
 * What the kernel's permission table does not say about reference files (docs/reference-files.md,
 * "Access"): who may read, add and delete a project's or a template's references is the table's
 * `readReferences` / `writeReferences`, declared by each route; which of the references a caller
 * may delete is this file's rule.
 */

/** Description: a vendor's users may delete only the references they created. */
export function assertDeletable(caller: Caller, access: ProjectAccess, rows: readonly ReferenceFileRow[]): void {
  if (access.ownOrganization) return;
  const others = rows.filter((r) => String(r.createdById) !== caller.userId);
  if (others.length)
    throw errors.AccessDenied({
      reason: `Users of a vendor may delete only their own reference files; ${others.map((r) => r.id).join(', ')} are not yours.`,
    });
}
