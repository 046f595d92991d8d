import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import type { ApiTokenRow } from './api-tokens.repository.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';

/** OpenTMS extension: personal API tokens, the subject tokens of the token exchange grant. */

export const ApiTokenCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'What the token is for; shown in the list.' }),
  expiresAt: Type.Optional(
    Nullable(Type.String({ format: 'date-time', description: 'When the token stops working; must be in the future. Omitted: never.' })),
  ),
});
export type ApiTokenCreateBody = Static<typeof ApiTokenCreateBody>;

export const ApiTokenUidParams = Type.Object({ uid: recordUid('apiTokens') });

export const ApiTokenListQuery = Type.Object({ ...PagingQuery });

export const ApiTokenDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    lastUsed: Nullable(Type.String({ format: 'date-time' })),
    revoked: Type.Boolean(),
    dateRevoked: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'ApiTokenDto' },
);
export type ApiTokenDto = Static<typeof ApiTokenDto>;

/** The create response: the only one that carries the token itself. */
export const ApiTokenCreatedDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    token: Type.String({ description: 'Shown once, here; only a hash is stored.' }),
    dateCreated: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    lastUsed: Type.Null(),
  },
  { title: 'ApiTokenCreatedDto' },
);

export const ApiTokenPage = PageOf(ApiTokenDto, 'PageDtoApiTokenDto');

export function toApiTokenDto(row: ApiTokenRow): ApiTokenDto {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    dateCreated: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsed: row.lastUsedAt,
    revoked: row.revokedAt !== null,
    dateRevoked: row.revokedAt,
  };
}
