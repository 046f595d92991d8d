import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../users/index.js';

/** OpenTMS extension: service accounts (description, "Authentication" > "Machine-to-machine"). */

export const ServiceAccountCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  products: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    minItems: 1,
    maxItems: 20,
    description: 'Product uids the account may get tokens for: `tms` (this API), `strings` (the string resource API).',
  }),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 40,
    description:
      'Scopes: `read`, `write` (for every listed product that supports it) or `<product>:<scope>` (for that product only). ' +
      "A product may end up with no scope; it still appears in its tokens' audience.",
  }),
});
export type ServiceAccountCreateBody = Static<typeof ServiceAccountCreateBody>;

export const ServiceAccountUidParams = Type.Object({ uid: recordUid('serviceAccounts') });

export const ServiceAccountListQuery = Type.Object({ ...PagingQuery });

const ProductGrantDto = Type.Object({ product: Type.String(), scopes: Type.Array(Type.String()) }, { title: 'ServiceAccountProduct' });

export const ServiceAccountDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    clientId: Type.String(),
    products: Type.Array(ProductGrantDto),
    botUser: UserReference,
    dateCreated: Type.String({ format: 'date-time' }),
  },
  { title: 'ServiceAccountDto' },
);
export type ServiceAccountDto = Static<typeof ServiceAccountDto>;

/** The create response: the only one that carries the client secret. */
export const ServiceAccountCreatedDto = Type.Object(
  {
    ...ServiceAccountDto.properties,
    clientSecret: Type.String({ description: 'Shown once, here; only a hash is stored.' }),
  },
  { title: 'ServiceAccountCreatedDto' },
);

export const ServiceAccountPage = PageOf(ServiceAccountDto, 'PageDtoServiceAccountDto');
