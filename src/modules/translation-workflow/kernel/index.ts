/**
 * The translation workflow's kernel: what its modules share. Access to projects, jobs and
 * templates comes from one permission table (access/); the shared wire schemas and views, the
 * records other modules load, settings, and event emission live here too (docs/workflow-kernel.md).
 */

// ---- access: the permission table, record loading, route declarations
export { ACCESS_RULES, PERMISSIONS, RELATIONS, REVEALING, grantedPermissions, reveals } from './access/workflow-permissions.js';
export type { AccessRule, Permission, RecordKind, Relation, RuleSubject } from './access/workflow-permissions.js';
export {
  findVisibleProject,
  projectForbidden,
  projectPermissions,
  requireProjectPermission,
  projectVisibilityContext,
  requireProject,
  vendorsMayUploadReferences,
  visibleProjects,
} from './access/project-access.js';
export type { ProjectAccess, ProjectPermission, ProjectRow, ProjectViewKind, ProjectVisibilityContext } from './access/project-access.js';
export type { ProjectRouteOptions } from './access/route-access.js';
export { findVisibleJob, jobForbidden, jobPermissions, requireJob, requireJobOf, visibleJobsInProject } from './access/job-access.js';
export type { JobAccess, JobPermission, JobRow } from './access/job-access.js';
export {
  findTemplateAccess,
  requireTemplate,
  requireTemplateAccess,
  requireUsableTemplate,
  templateTargetLangs,
  visibleTemplates,
} from './access/template-access.js';
export type { TemplateAccess, TemplatePermission, TemplateRow } from './access/template-access.js';
export {
  PROJECT_CREATORS,
  PROJECT_EDITORS,
  PROJECT_READERS,
  TEMPLATE_PROJECT_CREATORS,
  installWorkflowRecordAccess,
  jobAccessOf,
  loadDeclaredRecord,
  onJob,
  onProject,
  onTemplate,
  ownView,
  projectAccessOf,
  templateAccessOf,
} from './access/route-access.js';

// ---- shared schemas, views, records, settings and events
export { JobUidParams, ProjectTemplateUid, ProjectUid, ProjectUidParams, TemplateUidParams } from './params.js';
export { FileImportSettingsCreateDto, FileImportSettingsDto } from '../../organization-setup/import-settings/index.js';
export { jobEventSummaries } from './job-events.js';
export {
  currentProviders,
  findProvider,
  hasProviderKey,
  providerKeyMissing,
  providerNotFound,
  providerSetKey,
  replaceJobProviders,
  resolveNotifyProvider,
  resolveProviders,
} from './job-providers.js';
export type { ProviderKey, ResolvedProvider } from './job-providers.js';
export { jobEventRecords, jobExtendedDtos, jobReferenceDtos } from './job-views.js';
export type { JobSourceRow } from './job-views.js';
export {
  AsyncRequestReference,
  JobList,
  JobPartExtended,
  JobPartReadyReferences,
  JobPartReference,
  JobPartReferenceV2,
  JobRefs,
  JobParts,
  JobStatus,
  JobWorkflowStepReference,
  NotifyProviderInput,
  ProviderInput,
  ProviderReference,
} from './jobs.schemas.js';
export { projectReferenceNotFound, resolveOwner, resolveReference, resolveVendor, resolveWorkflowSteps } from './project-references.js';
export type { ProjectReferenceKind } from './project-references.js';
export {
  ACCESS_SETTINGS_DEFAULTS,
  SETTINGS_KEYS,
  accessSettingsOf,
  fileNamingSettingsOf,
  importSettingsOf,
  importSettingsView,
  jobSourceImportSettings,
  parseSettings,
  propagateTranslations,
  segmentationRuleIdsOf,
  writeSetting,
} from './project-settings.js';
export type { AccessSettings, SettingsKey } from './project-settings.js';
export { emitTemplateEvent, emitTemplateRowEvent } from './template-events.js';
export { emitProjectEvents, eventUser } from './project-events.js';
export { nextJobInnerId, projectTargetLanguages } from './project-records.js';
export { FINISHED_JOB_STATUSES, projectEventRecord, toProjectViewsV1, toProjectViewsV2 } from './project-views.js';
export type { ViewTarget } from './project-views.js';
export {
  ProjectPage,
  ProjectStatus,
  ProjectV1,
  ProjectV2,
  ProjectWorkflowStepList,
  ProjectWorkflowStepV1,
  ProjectWorkflowStepV2,
  WorkflowStepsQuery,
} from './project-view.schemas.js';
export { jobStatusRefusal, setJobStatusGuard } from './job-status-guard.js';
export type { JobStatusGuard } from './job-status-guard.js';
