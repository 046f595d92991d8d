import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/**
 * Table types of issue 6 (migration 2026-11-21T1800_projects_templates_jobs): template workflow
 * steps and assignments, projects, jobs and their files and segments, reference files, uploaded
 * files and custom field values. See src/db/schema.ts for the conventions and
 * docs/translation-workflow.md for the design.
 */

export interface TemplateWorkflowStepsTable {
  id: Generated<Id>;
  templateId: Id;
  workflowStepId: Id;
  /** 1-based position of the step in the template's workflow. */
  workflowLevel: number;
  /** JSON: per-step settings (notifyProvider, lqaProfile). */
  settings: Generated<string>;
}

/** A provider a template names; exactly one of userId and vendorId is set. */
export interface TemplateAssignmentsTable {
  id: Generated<Id>;
  templateId: Id;
  /** Null for a template without workflow steps. */
  templateWorkflowStepId: Id | null;
  /** Null: every target language. */
  targetLang: string | null;
  userId: Id | null;
  vendorId: Id | null;
}

export const PROJECT_STATUSES = [
  'NEW',
  'ASSIGNED',
  'COMPLETED',
  'ACCEPTED_BY_VENDOR',
  'DECLINED_BY_VENDOR',
  'COMPLETED_BY_VENDOR',
  'CANCELLED',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export interface ProjectsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  /** The project's number in its organization (1, 2, …), from organizations.lastProjectInternalId. */
  internalId: number;
  name: string;
  status: Generated<ProjectStatus>;
  sourceLang: string;
  ownerId: Id | null;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
  clientId: Id | null;
  businessUnitId: Id | null;
  costCenterId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  vendorId: Id | null;
  /** The template the project was made from, if any. */
  templateId: Id | null;
  purchaseOrder: string | null;
  dateDue: Timestamp | null;
  note: string | null;
  fileHandover: Generated<SqlBool>;
  archived: Generated<SqlBool>;
  /** Set by delete without purge: the project is gone from the API but its data is kept. */
  deletedAt: Timestamp | null;
  /** The last `innerId` given to an uploaded file of the project. */
  lastJobInnerId: Generated<number>;
  /** The last `innerId` given to an analysis of the project. */
  lastAnalysisInnerId: Generated<number>;
  /** JSON object of settings documents the service stores and returns. */
  settings: Generated<string>;
}

export interface ProjectTargetLanguagesTable {
  projectId: Id;
  targetLang: string;
  position: number;
}

/** A project-specific instance of a workflow step, with an id of its own. */
export interface ProjectWorkflowStepsTable {
  id: Generated<Id>;
  projectId: Id;
  workflowStepId: Id;
  workflowLevel: number;
  settings: Generated<string>;
}

/** One row per content-addressed blob; records holding a file reference it by sha256. */
export interface StoredFilesTable {
  sha256: string;
  size: number | string;
  createdAt: Timestamp;
}

export const IMPORT_STATUSES = ['RUNNING', 'OK', 'ERROR'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An uploaded file of a project; its jobs (per target language and step) share it. */
export interface JobSourcesTable {
  id: Generated<Id>;
  /** `sourceFileUid` on the wire. */
  uid: string;
  organizationId: Id;
  projectId: Id;
  /** The file's number in the project (`innerId` of its jobs). */
  innerId: number;
  filename: string;
  /** `originalFileDirectory` (the `path` of JobCreateRequestDto). */
  directory: string | null;
  sha256: string;
  size: number | string;
  contentType: string | null;
  /** JSON: the import settings the file was imported with. */
  importSettings: Generated<string>;
  importStatus: Generated<ImportStatus>;
  importError: string | null;
  /** The filter that read the file (xliff12, json, plain-text). */
  format: string | null;
  segmentCount: Generated<number>;
  wordCount: Generated<number>;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface SourceSegmentsTable {
  jobSourceId: Id;
  /** 0-based position of the segment in the file. */
  idx: number;
  unitLocator: string;
  unitIndex: number;
  key: string | null;
  /** Source text with inline tags as display tokens ({1>, <1}, {1}). */
  source: string;
  /** JSON array of InlineTag. */
  tags: Generated<string>;
  /** Text between the previous segment of the unit (or the unit's start) and this one. */
  gapBefore: Generated<string>;
  /** On the unit's last segment: the text after it; null otherwise. */
  gapAfter: string | null;
  /** A translation the file already held (XLIFF <target>), for the unit's first segment. */
  importedTarget: string | null;
  note: string | null;
  words: Generated<number>;
  /**
   * Migration 2026-11-30T1300: on a unit's first segment, JSON of what the file said about the unit
   * beyond its text (UnitFacts of src/formats/unit-facts.ts); null when it said nothing.
   */
  unitFacts: string | null;
}

export interface JobsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  projectId: Id;
  jobSourceId: Id;
  projectWorkflowStepId: Id | null;
  workflowLevel: Generated<number>;
  targetLang: string;
  status: Generated<string>;
  dateDue: Timestamp | null;
  /** JSON NotifyProviderDto, or null. */
  notifyProvider: string | null;
  /** Split jobs: the part of the file's segments (inclusive); null for the whole file. */
  beginIndex: number | null;
  endIndex: number | null;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

export interface JobSegmentsTable {
  jobId: Id;
  idx: number;
  target: string;
  confirmed: Generated<SqlBool>;
  modifiedAt: Timestamp;
  modifiedById: Id | null;
  // Migration 2026-11-29T1200_machine_translation (docs/machine-translation.md):
  locked: Generated<SqlBool>;
  /** Where the target came from when pre-translation or MT filled it: `tm`, `mt`, `nt`; null = a person (or unknown). */
  origin: string | null;
  /** The match score of that origin, 0..1.01 (TM), 1 (non-translatable); null for MT. */
  originScore: number | null;
  /** The uid of the TM or of the MT settings that gave the target. */
  originResource: string | null;
  /** JSON array of warnings MT left on the target (a misplaced tag, a glossary term it dropped). */
  mtWarnings: string | null;
}

/** A job's provider; exactly one of userId and vendorId is set. */
export interface JobProvidersTable {
  id: Generated<Id>;
  jobId: Id;
  userId: Id | null;
  vendorId: Id | null;
}

export interface JobStatusChangesTable {
  id: Generated<Id>;
  jobId: Id;
  status: string;
  changedAt: Timestamp;
  changedById: Id | null;
}

/** A target file made for download; sha256 is null until the async work finished. */
export interface JobTargetFilesTable {
  asyncRequestId: Id;
  jobId: Id;
  filename: string;
  sha256: string | null;
  createdAt: Timestamp;
  downloadedAt: Timestamp | null;
}

/** A reference file of a project or of a template (exactly one of the two is set). */
export interface ReferenceFilesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  projectId: Id | null;
  templateId: Id | null;
  filename: string;
  note: string | null;
  sha256: string;
  size: number | string;
  contentType: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface UploadedFilesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  sha256: string;
  size: number | string;
  contentType: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** A custom field's value on a project, a template or a job (exactly one owner is set). */
export interface CustomFieldValuesTable {
  id: Generated<Id>;
  /** `fieldInstanceUid` on the wire. */
  uid: string;
  organizationId: Id;
  customFieldId: Id;
  projectId: Id | null;
  templateId: Id | null;
  jobId: Id | null;
  /** Non-select fields; select fields keep their options in custom_field_value_options. */
  value: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

export interface CustomFieldValueOptionsTable {
  valueId: Id;
  optionId: Id;
}

export interface ProjectTables {
  templateWorkflowSteps: TemplateWorkflowStepsTable;
  templateAssignments: TemplateAssignmentsTable;
  projects: ProjectsTable;
  projectTargetLanguages: ProjectTargetLanguagesTable;
  projectWorkflowSteps: ProjectWorkflowStepsTable;
  storedFiles: StoredFilesTable;
  jobSources: JobSourcesTable;
  sourceSegments: SourceSegmentsTable;
  jobs: JobsTable;
  jobSegments: JobSegmentsTable;
  jobProviders: JobProvidersTable;
  jobStatusChanges: JobStatusChangesTable;
  jobTargetFiles: JobTargetFilesTable;
  referenceFiles: ReferenceFilesTable;
  uploadedFiles: UploadedFilesTable;
  customFieldValues: CustomFieldValuesTable;
  customFieldValueOptions: CustomFieldValueOptionsTable;
}
