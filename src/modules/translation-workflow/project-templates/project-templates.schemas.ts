import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { NamedReference, UidReference, WorkflowStepReference } from '../../organization-setup/setup-records/index.js';

/** Wire shapes of project templates (spec definitions ProjectTemplate, ProjectTemplateEditDto, …; docs/project-templates.md). */

const opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));
const Name255 = Type.String({ maxLength: 255 });
export const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Spec definition `ProviderReference` with the fields of its USER / VENDOR subtypes. */
export const ProviderReferenceSchema = Type.Object({
  type: Type.Enum(['USER', 'VENDOR']),
  id: Type.String(),
  uid: Type.String(),
  userName: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
});
export type ProviderReferenceDto = Static<typeof ProviderReferenceSchema>;

const AssignedTo = Type.Object({ targetLang: Nullable(Type.String()), providers: Type.Array(ProviderReferenceSchema) });

/** Spec definition `ProjectTemplateNotifyProviderDto`. */
export const NotifyProviderSchema = Type.Object({
  organizationEmailTemplate: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  notificationIntervalInMinutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1440 }))),
});
export type NotifyProvider = Static<typeof NotifyProviderSchema>;

/** Spec definition `ProjectWorkflowSettingsDto`. */
export const ProjectWorkflowSettingsSchema = Type.Object({
  completeUnassigned: Type.Optional(Type.Boolean()),
  propagateTranslationsToLowerWfDuringUpdateSource: Type.Optional(Type.Boolean()),
});
export type ProjectWorkflowSettings = Static<typeof ProjectWorkflowSettingsSchema>;

const WorkflowStepDto = Type.Object({
  id: Type.String(),
  uid: Type.String(),
  name: Type.String(),
  abbr: Type.String(),
  order: Type.Integer(),
  lqaEnabled: Type.Boolean(),
});

/** Spec definition `ProjectTemplate` (+ `costCenter`, an OpenTMS extension: the edit sets it, so the get shows it). */
export const ProjectTemplateSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    templateName: Type.String(),
    name: Nullable(Type.String()),
    sourceLang: Nullable(Type.String()),
    targetLangs: Type.Array(Type.String()),
    note: Nullable(Type.String()),
    useDynamicTitle: Type.Boolean(),
    dynamicTitle: Nullable(Type.String()),
    owner: Nullable(UserReference),
    client: Nullable(NamedReference),
    domain: Nullable(NamedReference),
    subDomain: Nullable(NamedReference),
    vendor: Nullable(NamedReference),
    businessUnit: Nullable(NamedReference),
    costCenter: Nullable(NamedReference),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    modifiedBy: Nullable(UserReference),
    dateModified: Nullable(Type.String({ format: 'date-time' })),
    dateTimeModified: Nullable(Type.String({ format: 'date-time' })),
    workflowSteps: Type.Array(WorkflowStepDto),
    workflowSettings: Type.Array(
      Type.Object({
        workflowStep: WorkflowStepReference,
        assignedTo: Type.Array(AssignedTo),
        notifyProvider: Nullable(NotifyProviderSchema),
        lqaProfile: Nullable(Type.Object({ uid: Type.String() })),
      }),
    ),
    projectWorkflowSettings: ProjectWorkflowSettingsSchema,
    notifyProviders: Nullable(NotifyProviderSchema),
    assignedTo: Type.Array(AssignedTo),
    fileHandover: Type.Optional(Type.Boolean()),
    importSettings: Type.Null({ description: 'Deprecated - always null' }),
  },
  { title: 'ProjectTemplate' },
);
export type ProjectTemplateDto = Static<typeof ProjectTemplateSchema>;

/** Spec definition `ProjectTemplateReference` (list items). */
export const ProjectTemplateReferenceSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    templateName: Type.String(),
    sourceLang: Nullable(Type.String()),
    targetLangs: Type.Array(Type.String()),
    owner: Nullable(UserReference),
    client: Nullable(NamedReference),
    domain: Nullable(NamedReference),
    subDomain: Nullable(NamedReference),
    costCenter: Nullable(NamedReference),
    businessUnit: Nullable(NamedReference),
    projectWorkflowSettings: Type.Object({ propagateTranslationsToLowerWfDuringUpdateSource: Type.Boolean() }),
    note: Nullable(Type.String()),
  },
  { title: 'ProjectTemplateReference' },
);
export type ProjectTemplateReferenceDto = Static<typeof ProjectTemplateReferenceSchema>;
export const ProjectTemplatePage = PageOf(ProjectTemplateReferenceSchema, 'PageDtoProjectTemplateReference');

/** Spec definition `ProjectTemplateCreateActionDto`. */
export const CreateTemplateBody = Type.Object({
  project: UidReference,
  name: Type.String({ minLength: 1, maxLength: 255, description: 'The template’s name (templateName).' }),
  importSettings: opt(UidReference),
  useDynamicTitle: Type.Optional(Type.Boolean()),
  dynamicTitle: opt(Name255),
});
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;

/** Spec definition `ProjectTemplateWorkflowSettingsAssignedToDto` as request bodies give it. */
const ProviderInput = Type.Object({
  type: Type.Enum(['USER', 'VENDOR']),
  id: Type.Optional(Type.String({ maxLength: 64 })),
  uid: Type.Optional(Type.String({ maxLength: 64 })),
});
export type ProviderInput = Static<typeof ProviderInput>;
const AssignedToInput = Type.Object({
  targetLang: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  providers: Type.Array(ProviderInput, { maxItems: 100 }),
});
export type AssignedToInput = Static<typeof AssignedToInput>;

/** Spec definition `WorkflowStepSettingsEditDto`. */
const WorkflowStepSettingsInput = Type.Object({
  workflowStep: IdReference,
  assignedTo: Type.Optional(Type.Array(AssignedToInput, { maxItems: 200 })),
  notifyProvider: opt(NotifyProviderSchema),
  lqaProfile: opt(UidReference),
});
export type WorkflowStepSettingsInput = Static<typeof WorkflowStepSettingsInput>;

/** Spec definition `ProjectTemplateEditDto` (PUT v1 and v2). */
export const EditTemplateBody = Type.Object({
  templateName: Type.String({ minLength: 1, maxLength: 255 }),
  name: opt(Name255),
  sourceLang: opt(Type.String({ maxLength: 32 })),
  targetLangs: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 500 })),
  useDynamicTitle: Type.Optional(Type.Boolean()),
  dynamicTitle: opt(Name255),
  notifyProvider: opt(NotifyProviderSchema),
  workFlowSettings: Type.Optional(Type.Array(WorkflowStepSettingsInput, { maxItems: 50 })),
  projectWorkflowSettings: opt(ProjectWorkflowSettingsSchema),
  client: opt(IdReference),
  costCenter: opt(IdReference),
  businessUnit: opt(IdReference),
  domain: opt(IdReference),
  subDomain: opt(IdReference),
  vendor: opt(IdReference),
  owner: opt(IdReference),
  importSettings: opt(UidReference),
  note: opt(Type.String({ maxLength: 4096 })),
  fileHandover: Type.Optional(Type.Boolean()),
  assignedTo: Type.Optional(Type.Array(AssignedToInput, { maxItems: 500 })),
});
export type EditTemplateBody = Static<typeof EditTemplateBody>;

export const TemplateListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the template name, ignoring case' })),
  clientId: Type.Optional(Type.Integer({ minimum: 0 })),
  clientName: Type.Optional(Type.String({ maxLength: 255 })),
  ownerUid: Type.Optional(Type.String({ maxLength: 64 })),
  domainName: Type.Optional(Type.String({ maxLength: 255 })),
  subDomainName: Type.Optional(Type.String({ maxLength: 255 })),
  costCenterId: Type.Optional(Type.Integer({ minimum: 0 })),
  costCenterName: Type.Optional(Type.String({ maxLength: 255 })),
  businessUnitName: Type.Optional(Type.String({ maxLength: 255 })),
  sort: Type.Enum(['dateCreated', 'templateName'], { default: 'dateCreated' }),
  direction: Type.Enum(['asc', 'desc'], { default: 'desc' }),
  ...PagingQuery,
});
export type TemplateListQuery = Static<typeof TemplateListQuery>;

export { TemplateUidParams } from '../kernel/index.js';

const VendorSecuritySettings = Type.Object({
  canChangeSharedJobDueDateEnabled: Type.Optional(Type.Boolean()),
  canChangeSharedJobDueDate: Type.Optional(Type.Array(UidReference, { maxItems: 1000 })),
  jobVendorsMayUploadReferences: Type.Optional(Type.Boolean()),
});

const ACCESS_FLAGS = [
  'downloadEnabled',
  'webEditorEnabledForLinguists',
  'showUserDataToLinguists',
  'emailNotifications',
  'strictWorkflowFinish',
  'useVendors',
  'linguistsMayEditLockedSegments',
  'usersMaySetAutoPropagation',
  'allowLoadingExternalContentInEditors',
  'allowLoadingIframes',
  'linguistsMayEditSource',
  'linguistsMayEditTagContent',
  'linguistsMayDownloadLqaReport',
  'usernamesDisplayedInLqaReport',
  'userMaySetInstantQA',
  'triggerWebhooks',
] as const;

/** Spec definition `EditProjectSecuritySettingsDtoV2`: fields left out take their defaults. */
export const EditAccessSettingsBody = Type.Object({
  ...Object.fromEntries(ACCESS_FLAGS.map((flag) => [flag, Type.Optional(Type.Boolean())])),
  notifyJobOwnerStatusChanged: Type.Optional(Type.Boolean()),
  vendors: Type.Optional(VendorSecuritySettings),
  allowedDomains: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
});
export type EditAccessSettingsBody = Static<typeof EditAccessSettingsBody>;

/** Spec definition `ProjectSecuritySettingsDtoV2`. */
export const AccessSettingsSchema = Type.Object(
  {
    ...Object.fromEntries(ACCESS_FLAGS.map((flag) => [flag, Type.Boolean()])),
    vendors: Type.Object({
      canChangeSharedJobDueDateEnabled: Type.Boolean(),
      canChangeSharedJobDueDate: Type.Array(Type.Object({ uid: Type.String() })),
      jobVendorsMayUploadReferences: Type.Boolean(),
    }),
    allowedDomains: Type.Array(Type.String()),
  },
  { title: 'ProjectSecuritySettingsDtoV2' },
);
