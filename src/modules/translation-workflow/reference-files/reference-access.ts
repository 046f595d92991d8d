import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { ProjectTemplatesTable } from '../../../db/tables/setup-records.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { forbidden, notFound } from '../../../errors/index.js';
import { requireProject } from '../kernel/index.js';
import type { ProjectAccess, ProjectRow } from '../kernel/index.js';

/**
 * Who may do what with reference files (docs/reference-files.md, "Access"). Projects go through
 * `requireProject` (404 when the caller cannot see the project); on top of that, users of a
 * vendor organization may add and delete references only when the project's access settings say
 * `vendors.jobVendorsMayUploadReferences` (default false), and delete only their own.
 */

export type ReferenceNeed = 'read' | 'write';

export interface ProjectReferenceAccess extends ProjectAccess {
  /** The caller works for a vendor organization the project is shared with. */
  asVendor: boolean;
}

/** `accessSettings.vendors.jobVendorsMayUploadReferences` of the project's settings (spec `VendorSecuritySettingsDto`, default false). */
export function vendorsMayUploadReferences(project: Pick<ProjectRow, 'settings'>): boolean {
  try {
    const settings = JSON.parse(project.settings) as { accessSettings?: { vendors?: { jobVendorsMayUploadReferences?: unknown } } } | null;
    return settings?.accessSettings?.vendors?.jobVendorsMayUploadReferences === true;
  } catch {
    return false;
  }
}

/** Whether the caller may add references to the project they see. */
export function mayWriteReferences(access: ProjectAccess): boolean {
  return access.ownOrganization || vendorsMayUploadReferences(access.project);
}

/** The project `uid` for a reference operation: 404 when not visible, 403 for a vendor the settings keep out. */
export async function requireProjectForReferences(
  db: Kysely<DB>,
  caller: Caller,
  uid: string,
  need: ReferenceNeed,
): Promise<ProjectReferenceAccess> {
  const access = await requireProject(db, caller, uid, 'view');
  if (need === 'write' && !mayWriteReferences(access)) {
    throw forbidden("The project's access settings do not let vendors add or delete reference files (jobVendorsMayUploadReferences).");
  }
  return { ...access, asVendor: !access.ownOrganization };
}

export type TemplateRow = Selectable<ProjectTemplatesTable>;

const ownTemplate = (template: TemplateRow, caller: Caller) =>
  String(template.createdById) === caller.userId || String(template.ownerId) === caller.userId;

/**
 * The template `uid` of the caller's organization for a reference operation. Project managers
 * follow the template rights (`projectTemplateViewOther`: 404 without it for others' templates;
 * `projectTemplateEditOther`: 403 for writing references of others' templates).
 */
export async function requireTemplateForReferences(db: Kysely<DB>, caller: Caller, uid: string, need: ReferenceNeed): Promise<TemplateRow> {
  const template = await db
    .selectFrom('projectTemplates')
    .selectAll()
    .where('organizationId', '=', caller.organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
  if (!template) throw notFound('Project template');
  if (caller.role !== 'PROJECT_MANAGER' || ownTemplate(template, caller)) return template;
  if (!hasRight(caller.role, caller.settings, 'projectTemplateViewOther')) throw notFound('Project template');
  if (need === 'write' && !hasRight(caller.role, caller.settings, 'projectTemplateEditOther')) {
    throw forbidden('You may see this project template but not change it.');
  }
  return template;
}
