import { Type } from 'typebox';
import type { Static } from 'typebox';
import { NET_RATE_BANDS } from '../../../domain/pricing/net-rates.js';
import type { NetRateBand } from '../../../domain/pricing/net-rates.js';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/**
 * Net rate schemes (spec definitions NetRateScheme, DiscountSchemeCreateDto, NetRateSchemeEdit,
 * DiscountSettingsDto, NetRateSchemeWorkflowStep*): the organization's discount grids, with
 * optional grids of their own per workflow step. Rates are percentages (0..100, at most 2
 * decimal places) of src/domain/pricing/net-rates.ts.
 */

export const NAME_MAX_LENGTH = 255;
/** More workflow steps than an organization plausibly has; bounds the work of one request. */
export const STEP_SCHEMES_MAX = 100;

const RateInput = Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Percent, at most 2 decimal places' }));
const RateOutput = Type.Number();

/** Spec definition `DiscountSettingsDto` as a request sends it: bands left out keep (or take) their rate. */
export const RatesInput = Type.Object(
  Object.fromEntries(NET_RATE_BANDS.map((band) => [band, RateInput])) as Record<NetRateBand, typeof RateInput>,
  {
    title: 'DiscountSettingsDto',
    description: 'Percent of the full price per match band, each 0..100 with at most 2 decimal places; bands left out are not changed.',
  },
);
export type RatesInput = Static<typeof RatesInput>;

/** Spec definition `DiscountSettingsDto` as the service answers it: every band. */
export const RatesSchema = Type.Object(
  Object.fromEntries(NET_RATE_BANDS.map((band) => [band, RateOutput])) as Record<NetRateBand, typeof RateOutput>,
  {
    title: 'DiscountSettingsDto',
  },
);

/** Spec definition `WorkflowStepReference`. */
export const WorkflowStepReference = Type.Object(
  { name: Type.String(), id: Type.String(), uid: Type.String(), order: Type.Integer(), lqaEnabled: Type.Boolean() },
  { title: 'WorkflowStepReference' },
);

/** Spec definition `NetRateSchemeWorkflowStepReference`. */
export const StepSchemeReference = Type.Object(
  { id: Type.String(), workflowStep: WorkflowStepReference },
  { title: 'NetRateSchemeWorkflowStepReference' },
);

/** Spec definition `NetRateSchemeWorkflowStep`. */
export const StepSchemeSchema = Type.Object(
  { id: Type.String(), workflowStep: WorkflowStepReference, rates: RatesSchema },
  { title: 'NetRateSchemeWorkflowStep' },
);

/** Spec definition `NetRateScheme`. */
export const NetRateSchemeSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    organization: Type.Object({ uid: Type.String(), name: Type.String() }, { title: 'OrganizationReference' }),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    workflowStepNetSchemes: Type.Array(StepSchemeReference, { description: 'In workflow order' }),
    rates: RatesSchema,
  },
  { title: 'NetRateScheme' },
);
export type NetRateSchemeDto = Static<typeof NetRateSchemeSchema>;

/** Spec definition `NetRateSchemeReference`. */
export const NetRateSchemeReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
  },
  { title: 'NetRateSchemeReference' },
);

export const NetRateSchemePage = PageOf(NetRateSchemeReference, 'PageDtoNetRateSchemeReference');
export const StepSchemePage = PageOf(StepSchemeReference, 'PageDtoNetRateSchemeWorkflowStepReference');

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'Trimmed; unique in the organization, ignoring case' });

/** Spec definition `NetRateSchemeWorkflowStepCreate`. */
export const StepSchemeInput = Type.Object(
  {
    workflowStep: Type.Object(
      { id: Type.String({ minLength: 1, maxLength: 64, description: 'The numeric id of a workflow step of the organization' }) },
      { title: 'IdReference' },
    ),
    rates: Type.Optional(RatesInput),
  },
  { title: 'NetRateSchemeWorkflowStepCreate' },
);
export type StepSchemeInput = Static<typeof StepSchemeInput>;

const StepSchemesInput = Type.Array(StepSchemeInput, {
  maxItems: STEP_SCHEMES_MAX,
  description: "At most one entry per workflow step; an entry's bands left out take the scheme's rates.",
});

/** Spec definition `DiscountSchemeCreateDto` (createDiscountScheme; createDiscountSchemeV2 takes the same). */
export const CreateNetRateSchemeBody = Type.Object(
  { name: Name, rates: Type.Optional(RatesInput), workflowStepNetSchemes: Type.Optional(StepSchemesInput) },
  { title: 'DiscountSchemeCreateDto' },
);
export type CreateNetRateSchemeBody = Static<typeof CreateNetRateSchemeBody>;

/** Spec definition `NetRateSchemeEdit` (updateDiscountScheme). */
export const EditNetRateSchemeBody = Type.Object({ name: Name, rates: Type.Optional(RatesInput) }, { title: 'NetRateSchemeEdit' });

/** editDiscountSchemeV2 (2025, not in the published spec): `NetRateSchemeEdit` plus the list of workflow step schemes. */
export const EditNetRateSchemeV2Body = Type.Object(
  {
    name: Name,
    rates: Type.Optional(RatesInput),
    workflowStepNetSchemes: Type.Optional(
      Type.Array(StepSchemeInput, {
        maxItems: STEP_SCHEMES_MAX,
        description:
          "When given, the scheme's workflow step schemes become exactly these: a step already listed keeps its id and rates " +
          "(bands given replace its own), a new step starts from the scheme's rates (bands given replace them), steps left out are removed. Left out: unchanged.",
      }),
    ),
  },
  { title: 'NetRateSchemeEditV2' },
);
export type EditNetRateSchemeBody = Static<typeof EditNetRateSchemeV2Body>;

/** cloneDiscountScheme (2025, not in the published spec): an optional body naming the copy. */
export const CloneNetRateSchemeBody = Nullable(
  Type.Object(
    { name: Type.Optional(Name) },
    { description: 'Leave the body or `name` out for "<name> (copy)", then "<name> (copy 2)", … whichever is free first.' },
  ),
);
export type CloneNetRateSchemeBody = Static<typeof CloneNetRateSchemeBody>;

/** Spec definition `NetRateSchemeWorkflowStepEdit`. */
export const EditStepSchemeBody = Type.Object({ rates: Type.Optional(RatesInput) }, { title: 'NetRateSchemeWorkflowStepEdit' });
export type EditStepSchemeBody = Static<typeof EditStepSchemeBody>;

export const NetRateSchemeListQuery = Type.Object({ ...PagingQuery });

const SchemeKey = Type.String({ ...PathUid, description: 'The uid of the scheme, or its numeric id.' });
export const NetRateSchemeUidParams = Type.Object({ netRateSchemeUid: SchemeKey });
export const StepSchemeParams = Type.Object({
  netRateSchemeUid: SchemeKey,
  netRateSchemeWorkflowStepId: Type.String({ pattern: '^[0-9]{1,18}$', description: 'The id of the workflow step scheme (int64)' }),
});
