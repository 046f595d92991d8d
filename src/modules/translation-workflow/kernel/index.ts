export { FileImportSettingsCreateDto, FileImportSettingsDto } from './import-settings.schemas.js';
export { requireJob } from './job-access.js';
export type { JobAccess, JobRow } from './job-access.js';
export { jobEventSummaries } from './job-events.js';
export {
  currentProviders,
  findProvider,
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
  DeletePartsQuery,
  JobCreateRequest,
  JobList,
  JobPartDeleteReferences,
  JobPartExtended,
  JobPartPage,
  JobPartPatchSingle,
  JobPartReadyReferences,
  JobPartReference,
  JobPartStatusChanges,
  JobPartUpdateBatch,
  JobPartUpdateSingle,
  JobParts,
  JobStatus,
  JobStatusChangeAction,
  JobUidParams,
  JobWorkflowStepReference,
  ListPartsQuery,
  NotifyProviderInput,
  ProjectUidParams,
  ProjectWorkflowStep,
  ProviderInput,
  ProviderReference,
  SearchJobs,
  SearchJobsRequest,
  SegmentList,
  SegmentsCounts,
  SegmentsCountsResponseList,
  SegmentsQuery,
} from './jobs.schemas.js';
export type { JobChanges } from './jobs.schemas.js';
export { findVisibleProject, projectVisibilityContext, requireProject, visibleProjects } from './project-access.js';
export type { ProjectAccess, ProjectRow, ProjectViewKind } from './project-access.js';
export { projectReferenceNotFound, resolveOwner, resolveReference, resolveVendor, resolveWorkflowSteps } from './project-references.js';
export type { ProjectReferenceKind } from './project-references.js';
export { PROJECT_CREATORS, PROJECT_EDITORS, PROJECT_READERS, TEMPLATE_PROJECT_CREATORS, ownView } from './project-route-access.js';
export {
  ACCESS_SETTINGS_DEFAULTS,
  SETTINGS_KEYS,
  accessSettingsOf,
  fileNamingSettingsOf,
  importSettingsOf,
  parseSettings,
  propagateTranslations,
  writeSetting,
} from './project-settings.js';
export type { AccessSettings, SettingsKey } from './project-settings.js';
export { requireTemplate, requireUsableTemplate, templateTargetLangs, visibleTemplates } from './template-access.js';
export type { TemplateRow } from './template-access.js';
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
