import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { ANY_ROLE, callerOf } from '../../../http/access.js';
import { Password, UserDetailsV3 } from './users.schemas.js';
import { editOwnProfile, getOwnUser, userDetails } from './users.service.js';

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
        const user = await getOwnUser(deps, caller);
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
        const updated = await editOwnProfile(deps, caller, request.body);
        return userDetails(deps, caller, updated);
      },
    );
  };
}
