import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PROJECT_STATUSES } from '../../../db/tables/projects.js';
import { PageOf } from '../../../http/paging.js';
import { UserReference } from '../../identity/users/index.js';

/**
 * The published views of a project (AbstractProjectDto, AbstractProjectDtoV2 and the workflow
 * step views), shared by every module that answers with a project: one response schema per
 * version lists every field any role's view has (project-views.ts decides which a caller gets).
 */

export const ProjectStatus = Type.Enum([...PROJECT_STATUSES]);

// ---- views

const Named = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() });
const WorkflowStepRef = Type.Object({
  id: Type.String(),
  uid: Type.String(),
  name: Type.String(),
  order: Type.Integer(),
  lqaEnabled: Type.Boolean(),
});

/** Spec `ProjectWorkflowStepDto` (v1: the global step as an ObjectReference). */
export const ProjectWorkflowStepV1 = Type.Object({
  id: Type.Integer(),
  abbreviation: Type.String(),
  name: Type.String(),
  workflowLevel: Type.Integer(),
  workflowStep: Type.Object({ id: Type.String(), uid: Type.String() }),
});
/** Spec `ProjectWorkflowStepDtoV2`. */
export const ProjectWorkflowStepV2 = Type.Object(
  { id: Type.Integer(), abbreviation: Type.String(), name: Type.String(), workflowLevel: Type.Integer(), workflowStep: WorkflowStepRef },
  { title: 'ProjectWorkflowStepDtoV2' },
);
export const ProjectWorkflowStepList = Type.Object(
  { projectWorkflowSteps: Type.Array(ProjectWorkflowStepV2) },
  { title: 'ProjectWorkflowStepListDtoV2' },
);
export const WorkflowStepsQuery = Type.Object({ withAssignedJobs: Type.Boolean({ default: false }) });

const Progress = Type.Object({ totalCount: Type.Integer(), finishedCount: Type.Integer(), overdueCount: Type.Integer() });
const ReferenceFileReference = Type.Object({
  id: Type.String(),
  uid: Type.String(),
  filename: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  dateCreated: Type.String(),
  createdBy: Type.Union([UserReference, Type.Null()]),
});
/** Spec `USER` (a ProviderReference of type USER). */
const ProviderUser = Type.Object({
  type: Type.String(),
  id: Type.String(),
  uid: Type.String(),
  userName: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  active: Type.Boolean(),
});

const opt = Type.Optional;
const orNull = <T extends Parameters<typeof Type.Optional>[0]>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));

/** Fields of the base AbstractProjectDto, which every view has. */
const BaseFields = {
  uid: Type.String(),
  internalId: Type.Integer(),
  id: Type.String(),
  name: Type.String(),
  dateCreated: Type.String(),
  domain: orNull(Named),
  subDomain: orNull(Named),
  owner: orNull(UserReference),
  sourceLang: Type.String(),
  targetLangs: Type.Array(Type.String()),
  references: Type.Array(ReferenceFileReference),
  mtSettingsPerLanguageList: Type.Array(
    Type.Object(
      {
        targetLang: Type.Union([Type.String(), Type.Null()]),
        machineTranslateSettings: Type.Object(
          { id: Type.String(), uid: Type.String(), name: Type.String(), type: Type.String() },
          { title: 'MachineTranslateSettingsReference' },
        ),
      },
      { title: 'MTSettingsPerLanguageReference' },
    ),
  ),
  userRole: Type.String(),
};

/** Fields of the Admin / Project Manager / Vendor subtypes. */
const ManagerFields = {
  shared: opt(Type.Boolean()),
  progress: opt(Progress),
  client: orNull(Named),
  costCenter: orNull(Named),
  businessUnit: orNull(Named),
  dateDue: orNull(Type.String()),
  status: opt(ProjectStatus),
  purchaseOrder: orNull(Type.String()),
  isPublishedOnJobBoard: opt(Type.Boolean()),
  note: orNull(Type.String()),
  createdBy: orNull(UserReference),
  projectWorkflowSettings: opt(Type.Object({ propagateTranslationsToLowerWfDuringUpdateSource: Type.Boolean() })),
};

/** AbstractProjectDto: one schema for every role's view (fields a view lacks are left out). */
export const ProjectV1 = Type.Object(
  {
    ...BaseFields,
    ...ManagerFields,
    workflowSteps: opt(Type.Array(ProjectWorkflowStepV1)),
    archived: opt(Type.Boolean()),
    buyerOwner: orNull(ProviderUser),
    buyer: orNull(Named),
  },
  { title: 'AbstractProjectDto' },
);
export type ProjectV1 = Static<typeof ProjectV1>;

/** AbstractProjectDtoV2. */
export const ProjectV2 = Type.Object(
  { ...BaseFields, ...ManagerFields, workflowSteps: opt(Type.Array(ProjectWorkflowStepV2)) },
  { title: 'AbstractProjectDtoV2' },
);
export type ProjectV2 = Static<typeof ProjectV2>;

export const ProjectPage = PageOf(ProjectV1, 'PageDtoAbstractProjectDto');
