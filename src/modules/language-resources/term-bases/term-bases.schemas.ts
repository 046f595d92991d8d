import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { NamedReference } from '../../organization-setup/setup-records/index.js';

/** Wire shapes of term bases (spec definitions named on each; docs/terminology.md). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });
/** Spec `IdReference`: the numeric id or the uid of a record of the organization. */
const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const TermBaseUidParams = Type.Object({ termBaseUid: recordUid('termBases') });

/** Spec definition `TermBaseEditDto` (create and edit): the whole record (null or omitted references clear them). */
export const TermBaseEditBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  langs: Type.Array(Lang, { minItems: 1, maxItems: 500 }),
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  owner: Type.Optional(IdReference),
  note: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type TermBaseEditBody = Static<typeof TermBaseEditBody>;

export const ListTermBasesQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  lang: Type.Optional(Type.Array(Lang, { maxItems: 100 })),
  clientId: Type.Optional(Type.String({ maxLength: 64 })),
  domainId: Type.Optional(Type.String({ maxLength: 64 })),
  subDomainId: Type.Optional(Type.String({ maxLength: 64 })),
  ...PagingQuery,
});

export const DeleteTermBaseQuery = Type.Object({
  purge: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Accepted; the term base is removed either way (OpenTMS keeps no recycle bin for term bases, as for TMs).',
    }),
  ),
});

const BusinessUnitReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() });

/** Spec definition `TermBaseDto`. */
export const TermBaseSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    internalId: Type.Integer(),
    name: Type.String(),
    langs: Type.Array(Type.String()),
    client: Nullable(NamedReference),
    domain: Nullable(NamedReference),
    subDomain: Nullable(NamedReference),
    businessUnit: Nullable(BusinessUnitReference),
    createdBy: Nullable(UserReference),
    owner: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    note: Nullable(Type.String()),
    canShow: Type.Boolean(),
  },
  { title: 'TermBaseDto' },
);
export type TermBaseDto = Static<typeof TermBaseSchema>;
export const TermBasePage = PageOf(TermBaseSchema, 'PageDtoTermBaseDto');
