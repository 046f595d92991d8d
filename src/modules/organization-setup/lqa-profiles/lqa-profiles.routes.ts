import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { defaultLqaDefinition } from '../../../domain/quality-assurance/lqa-profile.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { lqaProfileAuthorIds, organizationUid } from './lqa-profiles.repository.js';
import type { LqaProfileRow } from './lqa-profiles.repository.js';
import {
  AuthorsPageQuery,
  LqaProfileBody,
  LqaProfileDefaultsSchema,
  LqaProfileDetailSchema,
  LqaProfileListQuery,
  LqaProfilePage,
  LqaProfileReferenceSchema,
  ProfileUidParams,
  UserReferencePage,
} from './lqa-profiles.schemas.js';
import type { LqaProfileDetailDto, LqaProfileReferenceDto } from './lqa-profiles.schemas.js';
import { Type } from 'typebox';
import { UserReference } from '../../identity/users/index.js';
import {
  createLqaProfile,
  definitionOf,
  deleteLqaProfile,
  duplicateLqaProfile,
  getLqaProfile,
  listProfiles,
  makeLqaProfileDefault,
  updateLqaProfile,
} from './lqa-profiles.service.js';

/**
 * The LQA profile operations of the Quality Assurance group (routes relative to `/api2`;
 * docs/lqa-profiles.md). Access (description, "Access rules", LQA profiles): list and get for
 * internal roles or the projectCreate right, which only ADMIN and PROJECT_MANAGER can hold, so
 * both read rules are those two roles; every change for the internal roles. LQA counts as enabled
 * for every organization.
 */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const WRITERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Quality Assurance'];

export function lqaProfilesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function references(caller: Caller, rows: LqaProfileRow[]): Promise<LqaProfileReferenceDto[]> {
    const [users, orgUid] = await Promise.all([
      userReferenceLookup(
        db,
        caller.organizationId,
        rows.map((r) => r.createdById),
      ),
      organizationUid(db, caller.organizationId),
    ]);
    return rows.map((row) => ({
      uid: row.uid,
      name: row.name,
      isDefault: bool(row.isDefault),
      createdBy: users(row.createdById),
      dateCreated: row.createdAt,
      organization: { uid: orgUid },
    }));
  }
  async function detail(caller: Caller, row: LqaProfileRow): Promise<LqaProfileDetailDto> {
    const [reference] = await references(caller, [row]);
    return { ...reference!, ...definitionOf(row) };
  }

  return async (app) => {
    app.get(
      '/v1/lqa/profiles',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getLqaProfiles',
          summary: 'GET list LQA profiles',
          description:
            '`name`: part of the name, ignoring case; `createdBy`: the uid or id of the creator; `dateCreated`: a day (`2026-12-01`) or a date-time, profiles created on that UTC day. ' +
            '`sort` keys pair with the `order` at the same position (ASC when missing); by name when no key is given.',
          querystring: LqaProfileListQuery,
          response: { 200: LqaProfilePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { rows, total, page } = await listProfiles(deps, caller, request.query);
        return toPage(await references(caller, rows), total, page);
      },
    );

    app.post(
      '/v1/lqa/profiles',
      {
        config: { access: WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'createLqaProfile',
          summary: 'Create LQA profile',
          description:
            'Categories, severities and the threshold left out take their defaults (getLqaProfileDefaultValues); a category given is enabled only when it says so. ' +
            "The organization's first profile becomes its default.",
          body: LqaProfileBody,
          response: { 201: LqaProfileDetailSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createLqaProfile(deps, caller, request.body);
        return reply.code(201).send(await detail(caller, row));
      },
    );

    app.get(
      '/v1/lqa/profiles/defaultValues',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getLqaProfileDefaultValues',
          summary: 'Get LQA profile default values',
          description:
            'The built-in defaults a new profile starts from; no stored profile, so `uid`, `name`, `createdBy` and `dateCreated` are null.',
          response: { 200: LqaProfileDefaultsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return {
          uid: null,
          name: null,
          isDefault: false,
          createdBy: null,
          dateCreated: null,
          organization: { uid: await organizationUid(db, caller.organizationId) },
          ...defaultLqaDefinition(),
        };
      },
    );

    app.get(
      '/v1/lqa/profiles/authors',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getLqaProfileAuthors',
          summary: 'Get list of LQA profile authors',
          description: "The users who created the organization's profiles, by last name and first name.",
          response: { 200: Type.Array(UserReference) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { ids } = await lqaProfileAuthorIds(db, caller.organizationId);
        const users = await userReferenceLookup(db, caller.organizationId, ids);
        return ids.map((id) => users(id)!).filter(Boolean);
      },
    );

    app.get(
      '/v2/lqa/profiles/authors',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getLqaProfileAuthorsV2',
          summary: 'Get list of LQA profile authors',
          description: "The users who created the organization's profiles, by last name and first name, a page at a time.",
          querystring: AuthorsPageQuery,
          response: { 200: UserReferencePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { ids, total } = await lqaProfileAuthorIds(db, caller.organizationId, page);
        const users = await userReferenceLookup(db, caller.organizationId, ids);
        return toPage(ids.map((id) => users(id)!).filter(Boolean), total, page);
      },
    );

    app.get(
      '/v1/lqa/profiles/:profileUid',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getLqaProfile',
          summary: 'Get LQA profile details',
          params: ProfileUidParams,
          response: { 200: LqaProfileDetailSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return detail(caller, await getLqaProfile(deps, caller, request.params.profileUid));
      },
    );

    app.put(
      '/v1/lqa/profiles/:profileUid',
      {
        config: { access: WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'updateLqaProfile',
          summary: 'Update LQA profile',
          description: 'The body replaces the profile: categories, severities and the threshold left out take their defaults.',
          params: ProfileUidParams,
          body: LqaProfileBody,
          response: { 200: LqaProfileDetailSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return detail(caller, await updateLqaProfile(deps, caller, request.params.profileUid, request.body));
      },
    );

    app.delete(
      '/v1/lqa/profiles/:profileUid',
      {
        config: { access: WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteLqaProfile',
          summary: 'Delete LQA profile',
          description:
            "400 LqaProfileInUse when the profile is the organization's default or a workflow step of a project (not in the recycle bin) or of a project template names it.",
          params: ProfileUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await deleteLqaProfile(deps, caller, request.params.profileUid);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/lqa/profiles/:profileUid/default',
      {
        config: { access: WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'makeDefault',
          summary: 'Make LQA profile default',
          description: "The profile becomes the organization's one default; the previous default is no longer one.",
          params: ProfileUidParams,
          response: { 200: LqaProfileReferenceSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await makeLqaProfileDefault(deps, caller, request.params.profileUid);
        return (await references(caller, [row]))[0];
      },
    );

    app.post(
      '/v1/lqa/profiles/:profileUid/duplicate',
      {
        config: { access: WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'duplicateProfile',
          summary: 'Duplicate LQA profile',
          description: 'A copy named `<name> (copy)` (the name shortened to fit 255 characters), created by the caller, never the default.',
          params: ProfileUidParams,
          response: { 200: LqaProfileReferenceSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await duplicateLqaProfile(deps, caller, request.params.profileUid);
        return (await references(caller, [row]))[0];
      },
    );
  };
}
