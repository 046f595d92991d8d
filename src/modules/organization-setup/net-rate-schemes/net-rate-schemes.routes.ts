import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { netRatesToWire, parseStoredNetRates } from '../../../domain/pricing/net-rates.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { findOrganizationById } from '../../identity/organizations/index.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { listNetRateSchemes, listStepSchemes, stepSchemesOf } from './net-rate-schemes.repository.js';
import type { NetRateSchemeRow, StepSchemeRow } from './net-rate-schemes.repository.js';
import {
  CloneNetRateSchemeBody,
  CreateNetRateSchemeBody,
  EditNetRateSchemeBody,
  EditNetRateSchemeV2Body,
  EditStepSchemeBody,
  NetRateSchemeListQuery,
  NetRateSchemePage,
  NetRateSchemeSchema,
  NetRateSchemeUidParams,
  StepSchemePage,
  StepSchemeParams,
  StepSchemeSchema,
} from './net-rate-schemes.schemas.js';
import type { NetRateSchemeDto } from './net-rate-schemes.schemas.js';
import {
  cloneNetRateScheme,
  createNetRateScheme,
  deleteNetRateScheme,
  editNetRateScheme,
  editStepScheme,
  getNetRateScheme,
  getStepScheme,
} from './net-rate-schemes.service.js';

/** Reading: ADMIN and PROJECT_MANAGER (they pick a scheme for a client, a vendor, a project). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
const WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

const tags = ['Net Rate Scheme'];
const RATES_RULE =
  'Rates are percentages of the full price per match band (DiscountSettingsDto), each 0..100 with at most 2 decimal places (400 naming the band otherwise).';
const NAME_RULE = 'The name is trimmed, not blank, and unique in the organization ignoring case (409).';
const STEPS_RULE =
  'Workflow step schemes name their workflow step by numeric id (`workflowStep: {id}`; 400 ReferenceNotFound when unknown, 400 when listed twice); ' +
  "an entry's bands left out take the scheme's rates.";

async function toDtos(db: Db, organizationId: string, rows: NetRateSchemeRow[]): Promise<NetRateSchemeDto[]> {
  const [users, steps, organization] = await Promise.all([
    userReferenceLookup(
      db,
      organizationId,
      rows.map((r) => r.createdById),
    ),
    stepSchemesOf(
      db,
      rows.map((r) => r.id),
    ),
    findOrganizationById(db, organizationId),
  ]);
  return rows.map((row) => ({
    id: String(row.id),
    uid: row.uid,
    name: row.name,
    organization: { uid: organization!.uid, name: organization!.name },
    dateCreated: row.createdAt,
    createdBy: users(row.createdById),
    workflowStepNetSchemes: steps.filter((s) => s.netRateSchemeId === String(row.id)).map(({ id, workflowStep }) => ({ id, workflowStep })),
    rates: netRatesToWire(parseStoredNetRates(row.rates)),
  }));
}

const toDto = async (db: Db, organizationId: string, row: NetRateSchemeRow) => (await toDtos(db, organizationId, [row]))[0]!;

const stepDto = (step: StepSchemeRow) => ({
  id: step.id,
  workflowStep: step.workflowStep,
  rates: netRatesToWire(parseStoredNetRates(step.rates)),
});

/** Net Rate Scheme operations (routes relative to `/api2`). */
export function netRateSchemesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/netRateSchemes',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getDiscountSchemes',
          summary: 'List net rate schemes',
          description: 'Sorted by name, ignoring case.',
          querystring: NetRateSchemeListQuery,
          response: { 200: NetRateSchemePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listNetRateSchemes(db, caller.organizationId, page);
        const users = await userReferenceLookup(
          db,
          caller.organizationId,
          rows.map((r) => r.createdById),
        );
        const content = rows.map((r) => ({
          id: String(r.id),
          uid: r.uid,
          name: r.name,
          dateCreated: r.createdAt,
          createdBy: users(r.createdById),
        }));
        return toPage(content, total, page);
      },
    );

    for (const version of ['v1', 'v2'] as const) {
      app.post(
        `/${version}/netRateSchemes`,
        {
          config: { access: WRITERS, errors: ['NameAlreadyExists', 'ReferenceNotFound'] },
          schema: {
            tags,
            operationId: version === 'v1' ? 'createDiscountScheme' : 'createDiscountSchemeV2',
            summary: 'Create net rate scheme',
            description:
              `${version === 'v2' ? 'The v2 operation (2025) takes the same body as v1 (DiscountSchemeCreateDto) and answers the same NetRateScheme. ' : ''}` +
              `${NAME_RULE} ${RATES_RULE} Bands left out take the defaults (src/domain/pricing/net-rates.ts, DEFAULT_NET_RATES). ${STEPS_RULE}`,
            body: CreateNetRateSchemeBody,
            response: { 201: NetRateSchemeSchema },
          },
        },
        async (request, reply) => {
          const caller = callerOf(request);
          const row = await createNetRateScheme(deps, caller, request.body);
          return reply.code(201).send(await toDto(db, caller.organizationId, row));
        },
      );
    }

    app.get(
      '/v1/netRateSchemes/:netRateSchemeUid',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getDiscountScheme',
          summary: 'Get net rate scheme',
          description: 'The scheme is named by its uid or its numeric id.',
          params: NetRateSchemeUidParams,
          response: { 200: NetRateSchemeSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toDto(db, caller.organizationId, await getNetRateScheme(deps, caller, request.params.netRateSchemeUid));
      },
    );

    app.put(
      '/v1/netRateSchemes/:netRateSchemeUid',
      {
        config: { access: WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags,
          operationId: 'updateDiscountScheme',
          summary: 'Edit net rate scheme',
          description: `${NAME_RULE} ${RATES_RULE} The bands given replace the scheme's; the others keep their rate. Workflow step schemes are not changed.`,
          params: NetRateSchemeUidParams,
          body: EditNetRateSchemeBody,
          response: { 200: NetRateSchemeSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toDto(db, caller.organizationId, await editNetRateScheme(deps, caller, request.params.netRateSchemeUid, request.body));
      },
    );

    app.put(
      '/v2/netRateSchemes/:netRateSchemeUid',
      {
        config: { access: WRITERS, errors: ['NameAlreadyExists', 'ReferenceNotFound'] },
        schema: {
          tags,
          operationId: 'editDiscountSchemeV2',
          summary: 'Edit net rate scheme',
          description:
            'The 2025 operation: the v1 body (NetRateSchemeEdit: `name`, `rates`) plus an optional `workflowStepNetSchemes` ' +
            "([{workflowStep: {id}, rates}], as on create). When given, the list replaces the scheme's workflow step schemes: a step already listed keeps its id " +
            "and its rates (bands given replace its own), a new step starts from the scheme's rates after this edit (bands given replace them), steps left out are removed; " +
            `left out, the list is unchanged. Answers NetRateScheme. ${NAME_RULE} ${RATES_RULE} ${STEPS_RULE}`,
          params: NetRateSchemeUidParams,
          body: EditNetRateSchemeV2Body,
          response: { 200: NetRateSchemeSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toDto(db, caller.organizationId, await editNetRateScheme(deps, caller, request.params.netRateSchemeUid, request.body));
      },
    );

    app.delete(
      '/v1/netRateSchemes/:netRateSchemeUid',
      {
        config: { access: WRITERS },
        schema: {
          tags,
          operationId: 'deleteDiscountScheme',
          summary: 'Delete net rate scheme',
          description:
            'Deletes the scheme with its workflow step schemes and, in the same transaction, clears every reference to it: ' +
            "clients', vendors' and linguists' `netRateScheme`, and the net rate scheme of projects' and project templates' financial settings.",
          params: NetRateSchemeUidParams,
        },
      },
      async (request, reply) => {
        await deleteNetRateScheme(deps, callerOf(request), request.params.netRateSchemeUid);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/netRateSchemes/:netRateSchemeUid/clone',
      {
        config: { access: WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags,
          operationId: 'cloneDiscountScheme',
          summary: 'Clone net rate scheme',
          description:
            'The 2025 operation: copies the scheme with its rates and its workflow step schemes (new ids). The body is optional: `{name}` names the copy ' +
            '(trimmed, 409 when taken); without it the copy is named "<name> (copy)", or "<name> (copy 2)", "<name> (copy 3)", … whichever is free first ' +
            '(the original name cut to fit 255 characters). Answers 201 with the new NetRateScheme.',
          params: NetRateSchemeUidParams,
          body: CloneNetRateSchemeBody,
          response: { 201: NetRateSchemeSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await cloneNetRateScheme(deps, caller, request.params.netRateSchemeUid, request.body);
        return reply.code(201).send(await toDto(db, caller.organizationId, row));
      },
    );

    app.get(
      '/v1/netRateSchemes/:netRateSchemeUid/workflowStepNetSchemes',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getDiscountSchemeWorkflowSteps',
          summary: 'List schemes for workflow step',
          description: 'The workflow step schemes of the scheme, in workflow order.',
          params: NetRateSchemeUidParams,
          querystring: NetRateSchemeListQuery,
          response: { 200: StepSchemePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const scheme = await getNetRateScheme(deps, caller, request.params.netRateSchemeUid);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listStepSchemes(db, scheme.id, page);
        return toPage(
          rows.map(({ id, workflowStep }) => ({ id, workflowStep })),
          total,
          page,
        );
      },
    );

    app.get(
      '/v1/netRateSchemes/:netRateSchemeUid/workflowStepNetSchemes/:netRateSchemeWorkflowStepId',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getDiscountSchemeWorkflowStep',
          summary: 'Get scheme for workflow step',
          params: StepSchemeParams,
          response: { 200: StepSchemeSchema },
        },
      },
      async (request) => {
        const { netRateSchemeUid, netRateSchemeWorkflowStepId } = request.params;
        return stepDto(await getStepScheme(deps, callerOf(request), netRateSchemeUid, netRateSchemeWorkflowStepId));
      },
    );

    app.put(
      '/v1/netRateSchemes/:netRateSchemeUid/workflowStepNetSchemes/:netRateSchemeWorkflowStepId',
      {
        config: { access: WRITERS },
        schema: {
          tags,
          operationId: 'editDiscountSchemeWorkflowStep',
          summary: 'Edit scheme for workflow step',
          description: `${RATES_RULE} The bands given replace the workflow step scheme's; the others keep their rate.`,
          params: StepSchemeParams,
          body: EditStepSchemeBody,
          response: { 200: StepSchemeSchema },
        },
      },
      async (request) => {
        const { netRateSchemeUid, netRateSchemeWorkflowStepId } = request.params;
        return stepDto(await editStepScheme(deps, callerOf(request), netRateSchemeUid, netRateSchemeWorkflowStepId, request.body));
      },
    );
  };
}
