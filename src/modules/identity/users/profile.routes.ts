import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { ANY_ROLE, callerOf } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { hashPassword, verifyPassword } from '../credentials/index.js';
import { revokeUserLoginTokens } from '../credentials/index.js';
import { updateUser } from './users.repository.js';
import { findUserById } from './users.repository.js';
import { Password, UserDetailsV3 } from './users.schemas.js';
import { userDetails } from './users.service.js';
import { assertTimezone, checkPassword } from './users.service.js';

const ProfileEditBody = Type.Object({
  firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 255, pattern: '^[^\\s@]+@[^\\s@]+$' })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  receiveNewsletter: Type.Optional(Type.Boolean()),
  currentPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  newPassword: Type.Optional(Password),
});

/**
 * The current user's own profile (operations named in the description's service index:
 * "current user reads own profile", "current user updates own profile"). Role, rights and user
 * name are not the user's to change here; a new password needs the current one.
 */
export function profileRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/userProfile',
      {
        config: { access: ANY_ROLE, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['User Profile'],
          operationId: 'getUserProfile',
          summary: 'Read your own profile',
          response: { 200: UserDetailsV3 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await findUserById(db, caller.organizationId, caller.userId);
        if (!user) throw errors.ResourceNotFound({ what: 'User' });
        return userDetails(deps, caller, user);
      },
    );

    app.put(
      '/v1/userProfile',
      {
        config: { access: { ...ANY_ROLE, humansOnly: true }, errors: ['ResourceNotFound', 'CurrentPasswordWrong', 'UnsupportedLanguage'] },
        schema: {
          tags: ['User Profile'],
          operationId: 'updateUserProfile',
          summary: 'Update your own profile',
          description: 'Omitted fields keep their values. Changing the password needs `currentPassword` and ends your other sessions.',
          body: ProfileEditBody,
          response: { 200: UserDetailsV3 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const body = request.body;
        const user = await findUserById(db, caller.organizationId, caller.userId);
        if (!user) throw errors.ResourceNotFound({ what: 'User' });
        if (body.timezone !== undefined) assertTimezone(body.timezone);
        let passwordHash: string | undefined;
        if (body.newPassword !== undefined) {
          if (!body.currentPassword || !user.passwordHash || !(await verifyPassword(body.currentPassword, user.passwordHash))) {
            throw errors.CurrentPasswordWrong();
          }
          checkPassword(body.newPassword, user.userName);
          passwordHash = await hashPassword(body.newPassword);
        }
        const updated = await db.transaction().execute(async (trx) => {
          const row = await updateUser(trx, caller.organizationId, caller.userId, {
            firstName: body.firstName ?? user.firstName,
            lastName: body.lastName ?? user.lastName,
            email: body.email ?? user.email,
            timezone: body.timezone ?? user.timezone,
            receiveNewsletter: body.receiveNewsletter ?? bool(user.receiveNewsletter),
            ...(passwordHash ? { passwordHash } : {}),
          });
          if (passwordHash) {
            const keep = caller.credential.kind === 'login' || caller.credential.kind === 'session' ? caller.credential.id : undefined;
            await revokeUserLoginTokens(trx, caller.userId, deps.clock(), keep);
          }
          return row;
        });
        return userDetails(deps, caller, updated);
      },
    );
  };
}
