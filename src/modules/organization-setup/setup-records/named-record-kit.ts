import type { FastifyPluginAsync } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { ProjectManagerRight } from '../../../domain/users/role-settings.js';
import { callerOf } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { ErrorCode } from '../../../errors/index.js';
import { PageOf, toPage } from '../../../http/paging.js';
import { recordUid } from '../../../http/schema-helpers.js';
import { findUserByUid } from '../../identity/users/index.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import {
  deleteNamedRecord,
  findNamedRecord,
  insertNamedRecord,
  listNamedRecords,
  nameTaken,
  updateNamedRecord,
} from './named-records.repository.js';
import type { NamedRow, NamedTableInfo } from './named-records.repository.js';
import { NamedRecordListQuery } from './setup-records.schemas.js';

/**
 * The record kit: one definition per kind of named setup record (client, business unit, cost
 * center, domain, subdomain) turns into the published list / create / get / edit / delete
 * operations with paging, filters, unique names, access rules, ownership rights and clearing
 * rules. See docs/setup-records.md.
 */

export interface KindContext {
  deps: AppDeps;
  caller: Caller;
}

/** `B` is the body's value type, as the kind's `body` schema validated it. */
export interface NamedRecordKind<B = Record<string, unknown>> extends NamedTableInfo {
  /** Singular name for messages, e.g. "Client". */
  label: string;
  tag: string;
  /** Collection path relative to /api2, e.g. `/v1/clients`. */
  path: string;
  uidParam: string;
  operationIds: { list: string; create: string; get: string; update: string; delete: string };
  plural: string;
  /** Names are unique in the organization, ignoring case. */
  uniqueNames: boolean;
  /** Edit applies only the fields given non-null (cost centers); otherwise `name` is required. */
  partialEdit: boolean;
  access: { read: Access; create: Access; edit: Access; delete: Access };
  /** Project managers need these rights for records created by other people (without `view`, lists show only their own). */
  othersRights?: { view: ProjectManagerRight; edit: ProjectManagerRight; delete: ProjectManagerRight };
  /** Refuses every operation when the organization does not have the feature (business units). */
  assertEnabled?: (context: KindContext) => Promise<void>;
  body: TSchema;
  dto: TSchema;
  /** Further columns from a create or edit body (references are checked here: 400 on unknown ones). */
  columns?: (context: KindContext, db: Kysely<DB>, body: B, existing: NamedRow | null) => Promise<Record<string, unknown>>;
  /** Writes that belong to the record beyond its row (client contacts), in the same transaction. */
  afterWrite?: (context: KindContext, trx: Transaction<DB>, row: NamedRow, body: B) => Promise<void>;
  /** The kind's own fields of a page of records, loaded in one go. */
  views?: (context: KindContext, rows: NamedRow[]) => Promise<(row: NamedRow) => Record<string, unknown>>;
  /** Clearing rules that foreign keys do not carry out by themselves, in the delete's transaction. */
  beforeDelete?: (context: KindContext, trx: Transaction<DB>, row: NamedRow) => Promise<void>;
}

function mayTouch(caller: Caller, row: NamedRow, right: ProjectManagerRight | undefined): boolean {
  if (!right || caller.role !== 'PROJECT_MANAGER') return true;
  if (row.createdById !== null && row.createdById === caller.userId) return true;
  return hasRight(caller.role, caller.settings, right);
}

/**
 * The five operations of `kind`. Typed loosely on purpose: the kit serves every kind, so the
 * handlers read `request.query`/`body` through the kind's own schemas, which Fastify has already
 * validated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function namedRecordRoutes(deps: AppDeps, kind: NamedRecordKind<any>): FastifyPluginAsync {
  const db = deps.database.db;
  const Params = Type.Object({ [kind.uidParam]: recordUid(kind.table) });
  const Page = PageOf(kind.dto, `PageDto${(kind.dto as { title?: string }).title ?? kind.label}`);
  const uidOf = (params: unknown) => (params as Record<string, string>)[kind.uidParam]!;
  /** What creating or editing may answer besides the usual errors: a taken name, an unknown reference. */
  const writeErrors: ErrorCode[] = kind.uniqueNames ? ['NameAlreadyExists', 'ReferenceNotFound'] : ['ReferenceNotFound'];

  async function context(caller: Caller): Promise<KindContext> {
    const ctx = { deps, caller };
    await kind.assertEnabled?.(ctx);
    return ctx;
  }

  async function toDtos(ctx: KindContext, rows: NamedRow[]): Promise<Record<string, unknown>[]> {
    const users = await userReferenceLookup(
      db,
      ctx.caller.organizationId,
      rows.map((r) => r.createdById),
    );
    const extra = kind.views ? await kind.views(ctx, rows) : () => ({});
    return rows.map((row) => ({ id: row.id, uid: row.uid, name: row.name, createdBy: users(row.createdById), ...extra(row) }));
  }

  /**
   * The record `uid` as the caller may address it: a record the caller may not see (a project
   * manager without the view-others right, on someone else's record) does not exist for them
   * (404, as it is missing from their list); one they see but may not change is 403.
   */
  async function one(ctx: KindContext, uid: string, right: ProjectManagerRight | undefined): Promise<NamedRow> {
    const row = await findNamedRecord(db, kind, ctx.caller.organizationId, uid);
    if (!row || !mayTouch(ctx.caller, row, kind.othersRights?.view)) throw errors.ResourceNotFound({ what: kind.label });
    if (!mayTouch(ctx.caller, row, right)) throw errors.AccessDenied();
    return row;
  }

  function nameOf(body: Record<string, unknown>): string | null | undefined {
    const name = (body as { name?: string | null }).name;
    if (typeof name === 'string' && name.trim() === '')
      throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
    return name;
  }

  /** Writes in one transaction; a unique-name race lost at the database gets the same 409 as the check. */
  async function write(ctx: KindContext, body: Record<string, unknown>, existing: NamedRow | null): Promise<NamedRow> {
    const name = nameOf(body);
    if (!existing && (name === undefined || name === null))
      throw errors.InvalidArguments({ reason: 'name is required.', details: [{ field: 'name', message: 'required' }] });
    try {
      return await db.transaction().execute(async (trx) => {
        if (kind.uniqueNames && typeof name === 'string' && (await nameTaken(trx, kind, ctx.caller.organizationId, name, existing?.id))) {
          throw errors.NameAlreadyExists({ what: `a ${kind.label.toLowerCase()}`, name });
        }
        const columns = kind.columns ? await kind.columns(ctx, trx, body, existing) : {};
        const changes = { ...(typeof name === 'string' ? { name } : {}), ...columns };
        const row = existing
          ? Object.keys(changes).length === 0
            ? existing
            : await updateNamedRecord(trx, kind, existing.id, changes)
          : await insertNamedRecord(trx, kind, {
              uid: newUid(),
              organizationId: ctx.caller.organizationId,
              name,
              createdAt: deps.clock().toISOString(),
              createdById: ctx.caller.userId,
              ...columns,
            });
        await kind.afterWrite?.(ctx, trx, row, body);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error) && typeof name === 'string')
        throw errors.NameAlreadyExists({ what: `a ${kind.label.toLowerCase()}`, name });
      throw error;
    }
  }

  return async (app) => {
    app.get(
      kind.path,
      {
        config: { access: kind.access.read },
        schema: {
          tags: [kind.tag],
          operationId: kind.operationIds.list,
          summary: `List ${kind.plural}`,
          querystring: NamedRecordListQuery,
          response: { 200: Page },
        },
      },
      async (request) => {
        const ctx = await context(callerOf(request));
        const { pageNumber, pageSize, name, createdBy, sort, order } = request.query as Static<typeof NamedRecordListQuery>;
        let createdById: string | null | undefined;
        if (createdBy !== undefined) createdById = (await findUserByUid(db, ctx.caller.organizationId, createdBy))?.id?.toString() ?? null;
        // Without the right to see others' records, a project manager's list holds only their own.
        const view = kind.othersRights?.view;
        if (view && ctx.caller.role === 'PROJECT_MANAGER' && !hasRight(ctx.caller.role, ctx.caller.settings, view)) {
          if (createdById !== undefined && createdById !== ctx.caller.userId) createdById = null;
          else createdById = ctx.caller.userId;
        }
        const page = { pageNumber, pageSize };
        const { rows, total } = await listNamedRecords(db, kind, ctx.caller.organizationId, { name, createdById, sort, order }, page);
        return toPage(await toDtos(ctx, rows), total, page);
      },
    );

    app.post(
      kind.path,
      {
        config: { access: kind.access.create, errors: writeErrors },
        schema: {
          tags: [kind.tag],
          operationId: kind.operationIds.create,
          summary: `Create ${kind.label.toLowerCase()}`,
          body: kind.body,
          response: { 201: kind.dto },
        },
      },
      async (request, reply) => {
        const ctx = await context(callerOf(request));
        const row = await write(ctx, request.body as Record<string, unknown>, null);
        return reply.code(201).send((await toDtos(ctx, [row]))[0]);
      },
    );

    app.get(
      `${kind.path}/:${kind.uidParam}`,
      {
        config: { access: kind.access.read },
        schema: {
          tags: [kind.tag],
          operationId: kind.operationIds.get,
          summary: `Get ${kind.label.toLowerCase()}`,
          params: Params,
          response: { 200: kind.dto },
        },
      },
      async (request) => {
        const ctx = await context(callerOf(request));
        return (await toDtos(ctx, [await one(ctx, uidOf(request.params), kind.othersRights?.view)]))[0];
      },
    );

    app.put(
      `${kind.path}/:${kind.uidParam}`,
      {
        config: { access: kind.access.edit, errors: writeErrors },
        schema: {
          tags: [kind.tag],
          operationId: kind.operationIds.update,
          summary: `Edit ${kind.label.toLowerCase()}`,
          description: kind.partialEdit ? 'Only the fields given non-null change.' : undefined,
          params: Params,
          body: kind.body,
          response: { 200: kind.dto },
        },
      },
      async (request) => {
        const ctx = await context(callerOf(request));
        const existing = await one(ctx, uidOf(request.params), kind.othersRights?.edit);
        const row = await write(ctx, request.body as Record<string, unknown>, existing);
        return (await toDtos(ctx, [row]))[0];
      },
    );

    app.delete(
      `${kind.path}/:${kind.uidParam}`,
      {
        config: { access: kind.access.delete },
        schema: {
          tags: [kind.tag],
          operationId: kind.operationIds.delete,
          summary: `Delete ${kind.label.toLowerCase()}`,
          params: Params,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const ctx = await context(callerOf(request));
        const row = await one(ctx, uidOf(request.params), kind.othersRights?.delete);
        await db.transaction().execute(async (trx) => {
          await kind.beforeDelete?.(ctx, trx, row);
          await deleteNamedRecord(trx, kind, row.id, deps.clock().toISOString());
        });
        return reply.code(204).send();
      },
    );
  };
}
