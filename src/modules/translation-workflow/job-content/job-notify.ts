import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { notifyUsers } from '../../integration/notifications/index.js';
import type { NotifyJobPartsRequest } from './job-content.schemas.js';

/**
 * notifyAssigned (docs/job-content-and-handovers.md): each user assigned to a listed job gets a
 * notification (GET /api2/v1/notifications) made from the chosen e-mail template's subject. OpenTMS
 * sends no e-mail yet, so `cc` and `bcc` are checked and recorded in the notification's payload
 * but nobody is mailed; vendor providers have no users in the organization and are not notified.
 */
export async function notifyAssignedProviders(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  body: NotifyJobPartsRequest,
): Promise<number> {
  const db = deps.database.db;
  const jobs: JobRow[] = [];
  for (const uid of new Set(body.jobs.map((j) => j.uid))) jobs.push((await requireJobOf(db, caller, project, uid, 'edit')).job);
  const template = await emailTemplate(db, caller.organizationId, String(body.emailTemplate.id));
  return db.transaction().execute(async (trx) => {
    let notified = 0;
    for (const job of jobs) notified += await notifyJobProviders(trx, deps, job, template, body);
    return notified;
  });
}

async function emailTemplate(db: Kysely<DB>, organizationId: string, id: string) {
  const template = /^[0-9]{1,18}$/.test(id)
    ? await db
        .selectFrom('emailTemplates')
        .select(['id', 'name', 'subject'])
        .where('id', '=', id)
        .where('organizationId', '=', organizationId)
        .executeTakeFirst()
    : undefined;
  if (!template) throw errors.ReferenceNotFound({ what: 'e-mail template', key: id, keyName: 'id', field: 'emailTemplate.id' });
  return template;
}

async function notifyJobProviders(
  trx: Kysely<DB>,
  deps: AppDeps,
  job: JobRow,
  template: { id: string; subject: string },
  body: NotifyJobPartsRequest,
): Promise<number> {
  const providers = await trx
    .selectFrom('jobProviders')
    .select('userId')
    .where('jobId', '=', job.id)
    .where('userId', 'is not', null)
    .execute();
  const userIds = providers.map((p) => String(p.userId));
  if (userIds.length === 0) return 0;
  const details = await trx
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select(['jobSources.filename', 'projects.uid as projectUid', 'projects.name as projectName'])
    .where('jobs.id', '=', job.id)
    .executeTakeFirstOrThrow();
  return notifyUsers(trx, {
    organizationId: job.organizationId,
    userIds,
    type: 'JOB_ASSIGNED',
    title: template.subject || 'You have been assigned a job',
    message: `You are assigned ${details.filename} (${job.targetLang}) in project ${details.projectName}.`,
    payload: {
      projectUid: details.projectUid,
      jobUid: job.uid,
      emailTemplateId: String(template.id),
      cc: body.cc ?? [],
      bcc: body.bcc ?? [],
    },
    at: deps.clock(),
  });
}
