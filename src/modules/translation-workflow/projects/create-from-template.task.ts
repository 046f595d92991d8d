import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { parseRoleSettings } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { ApiError, errors } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import { completeAsyncRequest, createAsyncRequest } from '../../integration/async-requests/index.js';
import { createProjectFromTemplate, projectLanguages } from './template-projects.js';
import { requireUsableTemplate } from '../kernel/index.js';
import type { TemplateRow } from '../kernel/index.js';
import type { CreateFromTemplateBody } from './template-projects.js';

/** Task kind of createProjectFromTemplateV2Async. */
export const CREATE_FROM_TEMPLATE_TASK = 'project.createFromTemplate';

export interface CreateFromTemplatePayload {
  userId: string;
  templateUid: string;
  body: CreateFromTemplateBody;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'project.createFromTemplate': CreateFromTemplatePayload;
  }
}

/**
 * The asynchronous applyTemplate: checks the languages at once (400), then records the async
 * request (CREATE_PROJECT) and enqueues the task in one transaction. Answers the async request.
 */
export async function requestProjectFromTemplate(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  body: CreateFromTemplateBody,
  callbackUrl: string | undefined,
) {
  projectLanguages(template, body);
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      action: 'CREATE_PROJECT',
      callbackUrl: callbackUrl ?? null,
    });
    await enqueue(
      trx,
      {
        kind: CREATE_FROM_TEMPLATE_TASK,
        payload: { userId: caller.userId, templateUid: template.uid, body },
        organizationId: caller.organizationId,
        asyncRequestId: asyncRequest.id,
      },
      deps.clock(),
    );
    return asyncRequest;
  });
  deps.taskWakeup.notify();
  return row;
}

/** The requesting user as a caller, as they are now (a user deleted meanwhile cannot create projects). */
async function callerFor(db: Kysely<DB>, userId: string): Promise<Caller | null> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).where('deletedAt', 'is', null).executeTakeFirst();
  if (!user || !bool(user.active)) return null;
  return {
    userId: user.id,
    userUid: user.uid,
    userName: user.userName,
    organizationId: user.organizationId,
    role: user.role,
    isBot: bool(user.isBot),
    settings: parseRoleSettings(user.role, user.roleSettings),
    credential: { kind: 'login', id: 'task' },
    scopes: null,
    impersonatorId: null,
    csrfTokenHash: null,
  };
}

/**
 * Creates the project of an async applyTemplate request. The project, the async request's
 * `project` and its completion are written in one transaction, and a finished request is never
 * worked again, so a task run twice makes one project. Errors of the input (ApiError) finish the
 * request with their code at once; other errors are retried by the queue.
 */
export const createFromTemplateTask: AppTaskHandler<typeof CREATE_FROM_TEMPLATE_TASK> = {
  kind: CREATE_FROM_TEMPLATE_TASK,
  maxAttempts: 3,
  async run(context, payload) {
    const { deps, asyncRequestId } = context;
    const db = deps.database.db;
    if (!asyncRequestId) return;
    try {
      await db.transaction().execute(async (trx) => {
        const request = await trx.selectFrom('asyncRequests').select('finishedAt').where('id', '=', asyncRequestId).executeTakeFirst();
        if (!request || request.finishedAt !== null) return;
        const caller = await callerFor(trx, payload.userId);
        if (!caller) throw errors.AccessDenied({ reason: 'The user who asked for the project can no longer create projects.' });
        const template = await requireUsableTemplate(trx, caller, payload.templateUid);
        const project = await createProjectFromTemplate(deps, trx, caller, template, payload.body);
        await trx
          .updateTable('asyncRequests')
          .set({ projectUid: project.uid, projectName: project.name })
          .where('id', '=', asyncRequestId)
          .execute();
        await completeAsyncRequest(deps, trx, asyncRequestId);
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await completeAsyncRequest(deps, db, asyncRequestId, { errorCode: error.errorCode, errorDesc: error.message });
    }
    deps.taskWakeup.notify();
  },
};
