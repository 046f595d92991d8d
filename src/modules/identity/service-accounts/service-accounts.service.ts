import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../../deps.js';
import { configureProducts } from '../../../domain/auth/products.js';
import { roleSettingsFromInput } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { PageRequest } from '../../../http/paging.js';
import { findUserById, findUsersByIds, insertUser } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { hashClientSecret, newClientCredentials } from './client-secrets.js';
import {
  deleteBotUser,
  deleteServiceAccountRow,
  findServiceAccountByUid,
  insertServiceAccount,
  listServiceAccounts,
} from './service-accounts.repository.js';
import type { ServiceAccountRow } from './service-accounts.repository.js';

export interface ServiceAccountView {
  row: ServiceAccountRow;
  botUser: UserRow;
}

/**
 * Bot users are PROJECT_MANAGERs (description, "Bot users": they read and write content, run
 * analyses and work with translation memories, which is a project manager's work; ADMIN would
 * give them the organization's settings). What a project manager may do that a bot may not is
 * closed two ways: routes that manage human users declare `humansOnly`, and the bot's own rights
 * to create, edit and delete users are switched off. Bots have no password, so they cannot log in,
 * and they hold no seat (the seat count leaves out `is_bot`).
 */
const BOT_ROLE = 'PROJECT_MANAGER' as const;
const BOT_RIGHTS_OFF = { userCreate: false, userEditOther: false, userDeleteOther: false };

/** `bot-<slug of the account name>-<random>`: recognisable in lists, unique across the installation. */
function botUserName(accountName: string): string {
  const slug = accountName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `bot-${slug || 'account'}-${randomBytes(6).toString('hex')}`;
}

export async function createServiceAccount(
  deps: AppDeps,
  caller: Caller,
  input: { name: string; products: string[]; scopes: string[] },
): Promise<ServiceAccountView & { clientSecret: string }> {
  const configured = configureProducts(input.products, input.scopes);
  if (!configured.ok) {
    throw errors.InvalidArguments({
      reason: `Invalid body parameter "${configured.error.field}": ${configured.error.message}.`,
      details: [{ field: configured.error.field, message: configured.error.message, in: 'body' }],
    });
  }
  const { clientId, clientSecret } = newClientCredentials();
  const userName = botUserName(input.name);
  const roleSettings = JSON.stringify(roleSettingsFromInput(BOT_ROLE, BOT_RIGHTS_OFF));

  // The account and its bot user exist together or not at all.
  const result = await deps.database.db.transaction().execute(async (trx) => {
    const botUser = await insertUser(trx, {
      organizationId: caller.organizationId,
      userName,
      // `.invalid` is reserved (RFC 2606): nothing is ever sent to a bot.
      email: `${userName}@bots.invalid`,
      firstName: input.name,
      lastName: 'Bot',
      role: BOT_ROLE,
      passwordHash: null,
      createdById: caller.userId,
      isBot: true,
      roleSettings,
      receiveNewsletter: false,
    });
    const row = await insertServiceAccount(trx, {
      organizationId: caller.organizationId,
      name: input.name,
      clientId,
      clientSecretHash: hashClientSecret(clientSecret),
      products: configured.value,
      botUserId: botUser.id,
      createdById: caller.userId,
      now: deps.clock(),
    });
    return { row, botUser };
  });
  return { ...result, clientSecret };
}

export async function getServiceAccount(deps: AppDeps, caller: Caller, uid: string): Promise<ServiceAccountView> {
  const db = deps.database.db;
  const row = await findServiceAccountByUid(db, caller.organizationId, uid);
  const botUser = row && (await findUserById(db, caller.organizationId, row.botUserId));
  if (!row || !botUser) throw errors.ResourceNotFound({ what: 'Service account' });
  return { row, botUser };
}

export async function listServiceAccountViews(
  deps: AppDeps,
  caller: Caller,
  page: PageRequest,
): Promise<{ views: ServiceAccountView[]; total: number }> {
  const db = deps.database.db;
  const { rows, total } = await listServiceAccounts(db, caller.organizationId, page);
  const bots = new Map(
    (
      await findUsersByIds(
        db,
        caller.organizationId,
        rows.map((r) => r.botUserId),
      )
    ).map((u) => [u.id, u]),
  );
  const views = rows.flatMap((row) => {
    const botUser = bots.get(row.botUserId);
    return botUser ? [{ row, botUser }] : [];
  });
  return { views, total };
}

/** Deletes the account and its bot user in one transaction; tokens issued to it stop working at once. */
export async function deleteServiceAccount(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    const row = await findServiceAccountByUid(trx, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Service account' });
    await deleteServiceAccountRow(trx, caller.organizationId, row.id);
    await deleteBotUser(trx, caller.organizationId, row.botUserId);
  });
}
