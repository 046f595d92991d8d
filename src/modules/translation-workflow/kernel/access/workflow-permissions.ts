import { holdsRight } from '../../../../domain/users/role-settings.js';
import type { Role, RoleSettings } from '../../../../domain/users/role-settings.js';

/**
 * Who may do what to a project, a job or a project template: ONE declarative table of
 * role × relation × permission (docs/workflow-kernel.md). Pure data and a pure evaluator: the
 * kernel's loaders (project-access.ts, job-access.ts, template-access.ts) find which relations
 * hold between the caller and a record and ask `grantedPermissions`; list queries turn the rules
 * that grant `view` into SQL; the access-matrix test reads the same table to expect each route's
 * answer for a linguist, a vendor and a buyer on records of their own and on others'.
 *
 * A record the caller holds none of its kind's *revealing* permissions on does not exist for them
 * (404); one they see but lack the permission a route needs is 403.
 */

export const RECORD_KINDS = ['project', 'job', 'template'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** What can be done to each kind of record. */
export const PERMISSIONS = {
  project: [
    /** See it, its jobs' list, its settings and views. */
    'view',
    /** Change it: settings, workflow steps, target languages, templates applied, jobs' content. */
    'edit',
    'delete',
    /** Upload files that become jobs (editors, and submitters into the projects they created). */
    'createJobs',
    /** Set its status at all: its editors set the buyer's statuses (with `edit`), its vendor the vendor's (with `setVendorStatus`). */
    'setStatus',
    /** Set the statuses a vendor sets (ACCEPTED_BY_VENDOR, DECLINED_BY_VENDOR, COMPLETED_BY_VENDOR). */
    'setVendorStatus',
    /** Make a copy of it in the caller's organization. */
    'clone',
    /** Work on the content of its jobs (each listed job still needs `translate` of its own). */
    'translate',
    'readReferences',
    /** Add and delete reference files. */
    'writeReferences',
  ],
  job: [
    'view',
    /** Dates, providers, content, structure. */
    'edit',
    'delete',
    /** Move its status (src/domain/jobs/job-status.ts says which moves). */
    'setStatus',
    /** Work on its content: translations, handover files. */
    'translate',
  ],
  template: [
    'view',
    'edit',
    'delete',
    /** Make a project from it (applyTemplate, create from template). */
    'use',
    'readReferences',
    'writeReferences',
  ],
} as const satisfies Record<RecordKind, readonly string[]>;
export type Permission<K extends RecordKind = RecordKind> = (typeof PERMISSIONS)[K][number];

/** The permissions whose holder sees the record at all; without one of them it is 404. */
export const REVEALING: { readonly [K in RecordKind]: readonly Permission<K>[] } = {
  project: ['view'],
  job: ['view'],
  // Submitters use templates they cannot list, and linguists and guests read templates' reference files.
  template: ['view', 'use', 'readReferences'],
};

/**
 * How a caller can stand to a record. Each relation is decided in one place per record kind
 * (relations.ts), in SQL for lists and on a loaded row for single records.
 */
export const RELATIONS = {
  project: [
    /** The project belongs to the caller's organization. */
    'organization',
    /** … and the caller owns or created it. */
    'owner',
    /** … and it is within the caller's client and business unit lists (`projectClients`, `projectBusinessUnits`; empty = all). */
    'managed',
    /** … and the caller created it. */
    'creator',
    /** … and another submitter of the organization created it. */
    'submitters',
    /** … and its client is the guest's client. */
    'client',
    /** … and its client is the guest's client and the guest created it. */
    'clientCreator',
    /** The caller is a provider of one of its jobs. */
    'provider',
    /** It is shared with the caller's organization as its vendor. */
    'vendor',
    /** … and its access settings let vendors upload references (`jobVendorsMayUploadReferences`). */
    'vendorUploader',
  ],
  job: [
    /** The caller sees the job's project. */
    'projectViewer',
    'projectEditor',
    'projectDeleter',
    /** The caller is one of the job's providers. */
    'provider',
  ],
  template: [
    'organization',
    /** … and the caller owns or created it. */
    'owner',
    /** … and it is within the caller's template client and business unit lists (`projectTemplateClients`, `projectTemplateBusinessUnits`). */
    'managed',
  ],
} as const satisfies Record<RecordKind, readonly string[]>;
export type Relation<K extends RecordKind = RecordKind> = (typeof RELATIONS)[K][number];

/** One row of the table: callers of these roles, standing in this relation (and holding this right), get these permissions. */
export interface AccessRule<K extends RecordKind = RecordKind> {
  readonly record: K;
  readonly roles: readonly Role[];
  readonly relation: Relation<K>;
  /** A role right the caller must also hold (src/domain/users/role-settings.ts). */
  readonly right?: string;
  readonly grants: readonly Permission<K>[];
}

const rule = <K extends RecordKind>(r: AccessRule<K>): AccessRule<K> => r;

const MANAGERS: readonly Role[] = ['ADMIN', 'PROJECT_MANAGER'];
const EVERY_PROJECT_PERMISSION = PERMISSIONS.project.filter((p) => p !== 'setVendorStatus');

/** The table (docs/workflow-kernel.md shows it as a grid). */
export const ACCESS_RULES: readonly AccessRule[] = [
  // ---- projects
  rule({ record: 'project', roles: ['ADMIN'], relation: 'organization', grants: EVERY_PROJECT_PERMISSION }),
  rule({ record: 'project', roles: ['PROJECT_MANAGER'], relation: 'owner', grants: EVERY_PROJECT_PERMISSION }),
  rule({
    record: 'project',
    roles: ['PROJECT_MANAGER'],
    relation: 'managed',
    right: 'projectViewOther',
    grants: ['view', 'clone', 'readReferences', 'writeReferences'],
  }),
  rule({
    record: 'project',
    roles: ['PROJECT_MANAGER'],
    relation: 'organization',
    right: 'projectEditOther',
    grants: ['edit', 'setStatus', 'createJobs', 'translate'],
  }),
  rule({ record: 'project', roles: ['PROJECT_MANAGER'], relation: 'organization', right: 'projectDeleteOther', grants: ['delete'] }),
  rule({ record: 'project', roles: MANAGERS, relation: 'vendor', grants: ['view', 'setStatus', 'setVendorStatus', 'readReferences'] }),
  rule({ record: 'project', roles: MANAGERS, relation: 'vendorUploader', grants: ['writeReferences'] }),
  rule({ record: 'project', roles: ['LINGUIST'], relation: 'provider', grants: ['view', 'readReferences', 'translate'] }),
  // Managers take jobs themselves too: as a job's provider they work on it without edit rights on the project.
  rule({ record: 'project', roles: MANAGERS, relation: 'provider', grants: ['translate'] }),
  rule({
    record: 'project',
    roles: ['GUEST'],
    relation: 'client',
    right: 'projectViewOther',
    grants: ['view', 'readReferences', 'writeReferences'],
  }),
  rule({ record: 'project', roles: ['GUEST'], relation: 'clientCreator', grants: ['view', 'readReferences', 'writeReferences'] }),
  rule({
    record: 'project',
    roles: ['SUBMITTER'],
    relation: 'creator',
    grants: ['view', 'createJobs', 'readReferences', 'writeReferences'],
  }),
  rule({
    record: 'project',
    roles: ['SUBMITTER'],
    relation: 'submitters',
    right: 'projectViewCreatedByOtherSubmitters',
    grants: ['view', 'readReferences', 'writeReferences'],
  }),

  // ---- jobs: what the caller may do to the project, except that linguists see only their own jobs
  rule({ record: 'job', roles: ['ADMIN', 'PROJECT_MANAGER', 'GUEST', 'SUBMITTER'], relation: 'projectViewer', grants: ['view'] }),
  rule({ record: 'job', roles: MANAGERS, relation: 'projectEditor', grants: ['edit', 'setStatus', 'translate'] }),
  rule({ record: 'job', roles: MANAGERS, relation: 'projectDeleter', grants: ['delete'] }),
  rule({ record: 'job', roles: ['LINGUIST'], relation: 'provider', grants: ['view', 'setStatus', 'translate'] }),
  rule({ record: 'job', roles: MANAGERS, relation: 'provider', grants: ['setStatus', 'translate'] }),

  // ---- project templates
  rule({ record: 'template', roles: ['ADMIN'], relation: 'organization', grants: PERMISSIONS.template }),
  rule({ record: 'template', roles: ['PROJECT_MANAGER'], relation: 'owner', grants: PERMISSIONS.template }),
  rule({
    record: 'template',
    roles: ['PROJECT_MANAGER'],
    relation: 'managed',
    right: 'projectTemplateViewOther',
    grants: ['view', 'use', 'readReferences'],
  }),
  rule({
    record: 'template',
    roles: ['PROJECT_MANAGER'],
    relation: 'managed',
    right: 'projectTemplateEditOther',
    grants: ['edit', 'writeReferences'],
  }),
  rule({ record: 'template', roles: ['PROJECT_MANAGER'], relation: 'managed', right: 'projectTemplateDeleteOther', grants: ['delete'] }),
  rule({ record: 'template', roles: ['SUBMITTER'], relation: 'organization', grants: ['use'] }),
  rule({ record: 'template', roles: ['LINGUIST', 'GUEST'], relation: 'organization', grants: ['readReferences'] }),
];

/** The part of a caller the table looks at. */
export interface RuleSubject {
  readonly role: Role;
  readonly settings: RoleSettings | null;
}

/** The rules that apply to `subject` for `kind`: their role matches and they hold the rule's right. */
export function applicableRules<K extends RecordKind>(kind: K, subject: RuleSubject): AccessRule<K>[] {
  return (ACCESS_RULES as readonly AccessRule[]).filter(
    (r): r is AccessRule<K> =>
      r.record === kind && r.roles.includes(subject.role) && (r.right === undefined || holdsRight(subject.role, subject.settings, r.right)),
  );
}

/** What `subject` may do to a record of `kind`, given which relations hold between them. */
export function grantedPermissions<K extends RecordKind>(
  kind: K,
  subject: RuleSubject,
  holds: (relation: Relation<K>) => boolean,
): Set<Permission<K>> {
  const granted = new Set<Permission<K>>();
  for (const r of applicableRules(kind, subject)) if (holds(r.relation)) for (const p of r.grants) granted.add(p);
  return granted;
}

/** Whether a record with these permissions exists for its holder (else 404). */
export function reveals<K extends RecordKind>(kind: K, granted: ReadonlySet<Permission<K>>): boolean {
  return (REVEALING[kind] as readonly Permission<K>[]).some((p) => granted.has(p));
}

/** The relations that, holding, let `subject` see records of `kind` in lists (the `view` rules). */
export function viewingRelations<K extends RecordKind>(kind: K, subject: RuleSubject): Relation<K>[] {
  return [
    ...new Set(
      applicableRules(kind, subject)
        .filter((r) => (r.grants as readonly string[]).includes('view'))
        .map((r) => r.relation),
    ),
  ];
}
