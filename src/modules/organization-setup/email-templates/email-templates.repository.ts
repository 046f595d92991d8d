import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { EmailTemplatesTable } from '../../../db/tables/workflow-steps.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

export type EmailTemplateRow = Selectable<EmailTemplatesTable>;

/** The organization's templates (of one type, when given), in the order they were created. */
export async function listEmailTemplates(
  db: Kysely<DB>,
  organizationId: string,
  filter: { type?: string | undefined },
  page: PageRequest,
): Promise<{ rows: EmailTemplateRow[]; total: number }> {
  let query = db.selectFrom('emailTemplates').where('organizationId', '=', organizationId);
  if (filter.type) query = query.where('type', '=', filter.type);
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return { rows, total: num(total) };
}

export function findEmailTemplate(db: Kysely<DB>, organizationId: string, uid: string): Promise<EmailTemplateRow | undefined> {
  return db.selectFrom('emailTemplates').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}
