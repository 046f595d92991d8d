import type { Migration } from 'kysely';
import * as organizationsUsers from './2026-11-21T1300_organizations_users.js';
import * as identityAndAccess from './2026-11-21T1400_identity_and_access.js';
import * as userNamesIgnoreCase from './2026-11-21T1500_user_names_ignore_case.js';
import * as taskQueue from './2026-11-21T1600_task_queue.js';
import * as asyncRequestsAndWebhooks from './2026-11-21T1610_async_requests_and_webhooks.js';

/**
 * Every migration, by name. Names start with the date they were written, so they sort in the
 * order they must run; a released migration is frozen and never edited.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-21T1300_organizations_users': organizationsUsers,
  '2026-11-21T1400_identity_and_access': identityAndAccess,
  '2026-11-21T1500_user_names_ignore_case': userNamesIgnoreCase,
  '2026-11-21T1600_task_queue': taskQueue,
  '2026-11-21T1610_async_requests_and_webhooks': asyncRequestsAndWebhooks,
};
