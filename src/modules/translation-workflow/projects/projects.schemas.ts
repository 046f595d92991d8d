import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PagingQuery } from '../../../http/paging.js';
import { ProjectStatus } from '../kernel/index.js';

/**
 * Wire shapes of projects, named after the spec's definitions (CreateProjectV3Dto,
 * EditProjectV2Dto, PatchProjectDto, AbstractProjectDto, …). Bodies follow the published DTOs;
 * the one response schema per version lists every field any role's view has (the views in
 * project-views.ts decide which of them a caller gets).
 */

const JOB_STATUSES = ['NEW', 'ACCEPTED', 'DECLINED', 'REJECTED', 'DELIVERED', 'EMAILED', 'COMPLETED', 'CANCELLED'] as const;

/** Spec `IdReference`: OpenTMS accepts the record's numeric id or its uid in `id`. */
export const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type IdReference = Static<typeof IdReference>;
const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

const Name = Type.String({ maxLength: 255 });
const Note = Type.String({ maxLength: 4096 });
const PurchaseOrder = Type.String({ maxLength: 255 });
const DateDue = Type.String({ format: 'date-time' });
const Langs = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 500 });

/** Spec `LqaProfilesForWsV2Dto`. */
const LqaProfiles = Type.Array(Type.Object({ workflowStep: Type.Optional(IdReference), lqaProfile: Type.Optional(UidRef) }), {
  maxItems: 100,
});

/** Spec `CustomFieldInstanceApiDto`. */
export const CustomFieldInstanceApi = Type.Object({
  customField: UidRef,
  selectedOptions: Type.Optional(Type.Array(UidRef, { maxItems: 1000 })),
  value: Type.Optional(Type.String({ maxLength: 4096 })),
});
const CustomFields = Type.Array(CustomFieldInstanceApi, { maxItems: 500 });

/** Spec `CreateProjectV3Dto`. */
export const CreateProjectV3Body = Type.Object({
  name: Name,
  sourceLang: Type.String({ maxLength: 32 }),
  targetLangs: Langs,
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  costCenter: Type.Optional(IdReference),
  purchaseOrder: Type.Optional(PurchaseOrder),
  workflowSteps: Type.Optional(Type.Array(IdReference, { maxItems: 100 })),
  dateDue: Type.Optional(DateDue),
  note: Type.Optional(Note),
  lqaProfiles: Type.Optional(LqaProfiles),
  customFields: Type.Optional(CustomFields),
  fileHandover: Type.Optional(Type.Boolean()),
  propagateTranslationsToLowerWfDuringUpdateSource: Type.Optional(Type.Boolean()),
});
export type CreateProjectV3Body = Static<typeof CreateProjectV3Body>;

/** Spec `EditProjectV2Dto` (also the body of PUT v3, which the yaml does not show). */
export const EditProjectV2Body = Type.Object({
  name: Name,
  status: Type.Optional(ProjectStatus),
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  costCenter: Type.Optional(IdReference),
  owner: Type.Optional(IdReference),
  purchaseOrder: Type.Optional(PurchaseOrder),
  dateDue: Type.Optional(DateDue),
  note: Type.Optional(Note),
  fileHandover: Type.Optional(Type.Boolean()),
  propagateTranslationsToLowerWfDuringUpdateSource: Type.Optional(Type.Boolean()),
  lqaProfiles: Type.Optional(LqaProfiles),
  archived: Type.Optional(Type.Boolean()),
  customFields: Type.Optional(CustomFields),
});
export type EditProjectV2Body = Static<typeof EditProjectV2Body>;

const NullableId = Type.Union([IdReference, Type.Null()]);
const NullableText = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/** Spec `PatchProjectDto`: fields left out keep their values; null clears a reference or text. */
export const PatchProjectBody = Type.Object({
  name: Type.Optional(Name),
  status: Type.Optional(ProjectStatus),
  client: Type.Optional(NullableId),
  businessUnit: Type.Optional(NullableId),
  domain: Type.Optional(NullableId),
  subDomain: Type.Optional(NullableId),
  costCenter: Type.Optional(NullableId),
  owner: Type.Optional(IdReference),
  purchaseOrder: Type.Optional(NullableText(PurchaseOrder)),
  dateDue: Type.Optional(NullableText(DateDue)),
  note: Type.Optional(NullableText(Note)),
  machineTranslateSettings: Type.Optional(Type.Union([UidRef, Type.Null()])),
  machineTranslateSettingsPerLangs: Type.Optional(
    Type.Array(Type.Object({ targetLang: Type.String(), machineTranslateSettings: Type.Optional(UidRef) }), { maxItems: 500 }),
  ),
  archived: Type.Optional(Type.Boolean()),
});
export type PatchProjectBody = Static<typeof PatchProjectBody>;

export const SetProjectStatusBody = Type.Object({ status: ProjectStatus });
export const CloneProjectBody = Type.Object({ name: Type.String({ maxLength: 255 }) });

export { ProjectUidParams } from '../kernel/index.js';
export const DeleteProjectQuery = Type.Object({ purge: Type.Boolean({ default: false }) });

/** The query of listProjects, as published. */
export const ListProjectsQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  clientId: Type.Optional(Type.Integer({ minimum: 0 })),
  clientName: Type.Optional(Type.String({ maxLength: 255 })),
  businessUnitId: Type.Optional(Type.Integer({ minimum: 0 })),
  businessUnitName: Type.Optional(Type.String({ maxLength: 255 })),
  statuses: Type.Optional(Type.Array(ProjectStatus, { maxItems: 20 })),
  targetLangs: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 100 })),
  domainId: Type.Optional(Type.Integer({ minimum: 0 })),
  domainName: Type.Optional(Type.String({ maxLength: 255 })),
  subDomainId: Type.Optional(Type.Integer({ minimum: 0 })),
  subDomainName: Type.Optional(Type.String({ maxLength: 255 })),
  costCenterId: Type.Optional(Type.Integer({ minimum: 0 })),
  costCenterName: Type.Optional(Type.String({ maxLength: 255 })),
  dueInHours: Type.Optional(Type.Integer({ minimum: -1, maximum: 1_000_000, description: '-1 for projects that are overdue' })),
  createdInLastHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  sourceLangs: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 100 })),
  ownerId: Type.Optional(Type.Integer({ minimum: 0 })),
  jobStatuses: Type.Optional(Type.Array(Type.Enum([...JOB_STATUSES]), { maxItems: 20 })),
  jobStatusGroup: Type.Optional(Type.Enum(['NEW', 'ACCEPTED', 'COMPLETED'])),
  buyerId: Type.Optional(Type.Integer({ minimum: 0 })),
  ...PagingQuery,
  nameOrInternalId: Type.Optional(Type.String({ maxLength: 255 })),
  includeArchived: Type.Boolean({ default: false }),
  archivedOnly: Type.Boolean({ default: false }),
});
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;
