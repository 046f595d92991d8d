import { Type } from 'typebox';
import { ABBR_MAX_LENGTH, NAME_MAX_LENGTH, ORDER_MAX } from '../../../domain/workflow-steps/workflow-steps.js';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { recordUid } from '../../../http/schema-helpers.js';

/** Spec definition `WorkflowStepDto`. */
export const WorkflowStepSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    abbr: Type.String(),
    order: Type.Integer(),
    lqaEnabled: Type.Boolean(),
  },
  { title: 'WorkflowStepDto' },
);

export const WorkflowStepPage = PageOf(WorkflowStepSchema, 'PageDtoWorkflowStepDto');

const fields = {
  name: Type.String({
    minLength: 1,
    maxLength: NAME_MAX_LENGTH,
    description: 'Name of the workflow step, unique in the organization (ignoring case)',
  }),
  abbr: Type.String({ minLength: 1, maxLength: ABBR_MAX_LENGTH, description: 'Abbreviation, unique in the organization (ignoring case)' }),
  order: Type.Integer({ minimum: 1, maximum: ORDER_MAX, description: 'Order value; default: after the last step' }),
  lqaEnabled: Type.Boolean({ description: 'Default: false' }),
};

/** Spec definition `CreateWorkflowStepDto`. */
export const CreateWorkflowStepBody = Type.Object({
  name: fields.name,
  abbr: fields.abbr,
  order: Type.Optional(fields.order),
  lqaEnabled: Type.Optional(fields.lqaEnabled),
});

/** Spec definition `EditWorkflowStepDto`: the fields given are changed, the others stay. */
export const EditWorkflowStepBody = Type.Object({
  name: Type.Optional(fields.name),
  abbr: Type.Optional(fields.abbr),
  order: Type.Optional(fields.order),
  lqaEnabled: Type.Optional(fields.lqaEnabled),
});

export const WORKFLOW_STEP_SORTS = ['ID', 'NAME', 'ORDER', 'ABBR'] as const;

export const WorkflowStepListQuery = Type.Object({
  ...PagingQuery,
  sort: Type.Enum([...WORKFLOW_STEP_SORTS], { default: 'ID' }),
  order: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH, description: 'Part of the name, ignoring case' })),
  abbr: Type.Optional(Type.String({ maxLength: ABBR_MAX_LENGTH, description: 'The abbreviation, ignoring case' })),
});

export const WorkflowStepUidParams = Type.Object({ workflowStepUid: recordUid('workflowSteps') });

/** Spec definition `AdditionalWorkflowStepDto`; `id` is the record's uid (see docs/workflow-and-notifications.md). */
export const AdditionalWorkflowStepSchema = Type.Object({ id: Type.String(), name: Type.String() }, { title: 'AdditionalWorkflowStepDto' });

export const AdditionalWorkflowStepPage = PageOf(AdditionalWorkflowStepSchema, 'PageDtoAdditionalWorkflowStepDto');

/** Spec definition `AdditionalWorkflowStepRequestDto`. */
export const AdditionalWorkflowStepBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: NAME_MAX_LENGTH,
    description: 'Name of the additional workflow step, unique in the organization (ignoring case)',
  }),
});

export const AdditionalWorkflowStepListQuery = Type.Object({
  ...PagingQuery,
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH, description: 'Part of the name, ignoring case' })),
});

export const AdditionalWorkflowStepIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
