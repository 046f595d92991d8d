import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/**
 * Due date schemes (OpenTMS design; the operations are not in the published spec). A scheme says
 * how long before the project's due date each workflow step is due: a step's due date is the
 * project's due date minus `offsetDays` days and `offsetHours` hours.
 */

export const OFFSET_DAYS_MAX = 365;
export const OFFSET_HOURS_MAX = 23;
export const DESCRIPTION_MAX_LENGTH = 4000;

/** Spec definition `WorkflowStepReference`. */
export const WorkflowStepReference = Type.Object(
  { id: Type.String(), uid: Type.String(), name: Type.String(), order: Type.Integer(), lqaEnabled: Type.Boolean() },
  { title: 'WorkflowStepReference' },
);

export const DueDateSchemeStepSchema = Type.Object(
  {
    workflowStep: WorkflowStepReference,
    offsetDays: Type.Integer({ description: 'Days before the project due date' }),
    offsetHours: Type.Integer({ description: 'Further hours before the project due date' }),
  },
  { title: 'DueDateSchemeWorkflowStepDto' },
);

export const DueDateSchemeSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    workflowSteps: Type.Array(DueDateSchemeStepSchema, { description: 'In workflow order' }),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
  },
  { title: 'DueDateSchemeDto' },
);

export const DueDateSchemePage = PageOf(DueDateSchemeSchema, 'PageDtoDueDateSchemeDto');

export const CreateDueDateSchemeBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the organization, ignoring case' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH }))),
  workflowSteps: Type.Optional(
    Type.Array(
      Type.Object({
        workflowStep: Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }),
        offsetDays: Type.Optional(Type.Integer({ minimum: 0, maximum: OFFSET_DAYS_MAX, default: 0 })),
        offsetHours: Type.Optional(Type.Integer({ minimum: 0, maximum: OFFSET_HOURS_MAX, default: 0 })),
      }),
      { maxItems: 100, description: 'At most one entry per workflow step' },
    ),
  ),
});

export const DueDateSchemeListQuery = Type.Object({
  ...PagingQuery,
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, ignoring case' })),
});

export const DueDateSchemeUidParams = Type.Object({ dueDateSchemeUid: recordUid('dueDateSchemes') });
