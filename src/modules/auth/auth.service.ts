import type { AppDeps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { findUserByUserName } from '../users/users.repository.js';
import type { UserRow } from '../users/users.repository.js';
import { bool } from '../../db/database.js';
import { createLoginToken } from './login-tokens.repository.js';
import { decoyHash, verifyPassword } from './passwords.js';

export const invalidCredentials = () =>
  new ApiError('unauthenticated', 'AuthInvalidCredentials', 'Invalid user name or password.');

export interface LoginResult {
  user: UserRow;
  token: string;
  expires: string;
}

/**
 * Password login (v1 and v3). A wrong password, an unknown user name and an inactive or deleted
 * account all get the same 401, after the same amount of work, so the answer does not reveal
 * which user names exist.
 */
export async function login(deps: AppDeps, userName: string, password: string): Promise<LoginResult> {
  const user = await findUserByUserName(deps.database.db, userName);
  const usable = user && user.passwordHash && bool(user.active) && !user.deletedAt;
  const ok = await verifyPassword(password, usable ? user.passwordHash! : await decoyHash());
  if (!usable || !ok) throw invalidCredentials();
  const { token, expiresAt } = await createLoginToken(deps.database.db, {
    userId: String(user.id),
    organizationId: String(user.organizationId),
    now: deps.clock(),
    ttlSeconds: deps.config.loginTokenTtlSeconds,
  });
  return { user, token, expires: expiresAt };
}
