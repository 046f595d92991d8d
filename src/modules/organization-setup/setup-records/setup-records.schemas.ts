import { Type } from 'typebox';
import { PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/** Wire shapes of the named setup records (spec definitions ClientDto, BusinessUnitDto, …). */

const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the organization (domains excepted), ignoring case.' });

/** Query of every named-record list: name substring, creator, sort and order, paging. */
export const NamedRecordListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Part of the name, ignoring case' })),
  createdBy: Type.Optional(Type.String({ description: 'Uid of user' })),
  sort: Type.Enum(['NAME', 'DATE_CREATED'], { default: 'NAME' }),
  order: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
  ...PagingQuery,
});

/** The fields every named record has on the wire. */
const namedRecordFields = {
  id: Type.String(),
  uid: Type.String(),
  name: Type.String(),
  createdBy: Nullable(UserReference),
};

export const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { title: 'IdReference' });
export const UidReference = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }, { title: 'UidReference' });
export const ClientReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() }, { title: 'ClientReference' });

const PriceListReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() }, { title: 'PriceListReference' });
const NetRateSchemeReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
  },
  { title: 'NetRateSchemeReference' },
);

/** A contact person of a client (OpenTMS extension: the description names client contacts, the spec does not show them). */
export const ClientContact = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    email: Type.Optional(Nullable(Type.String({ maxLength: 255, format: 'email' }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  },
  { title: 'ClientContact' },
);
const MAX_CONTACTS = 50;

/** Spec definition `ClientEditDto` (create and edit), plus `contacts`. */
export const ClientBody = Type.Object({
  name: Name,
  externalId: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  note: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  displayNoteInProject: Type.Optional(Nullable(Type.Boolean({ description: 'Default: false' }))),
  priceList: Type.Optional(Nullable(IdReference)),
  netRateScheme: Type.Optional(Nullable(IdReference)),
  contacts: Type.Optional(
    Nullable(
      Type.Array(ClientContact, { maxItems: MAX_CONTACTS, description: "OpenTMS extension: replaces the client's contacts when given." }),
    ),
  ),
});

export const ClientSchema = Type.Object(
  {
    ...namedRecordFields,
    externalId: Nullable(Type.String()),
    note: Nullable(Type.String()),
    displayNoteInProject: Type.Boolean(),
    priceList: Nullable(PriceListReference),
    netRateScheme: Nullable(NetRateSchemeReference),
    contacts: Type.Array(Type.Object({ name: Type.String(), email: Nullable(Type.String()), phone: Nullable(Type.String()) }), {
      description: "OpenTMS extension: the client's contact people.",
    }),
  },
  { title: 'ClientDto' },
);

/** Spec definition `BusinessUnitEditDto`, plus `client`. */
export const BusinessUnitBody = Type.Object({
  name: Name,
  /** OpenTMS extension: the client the unit belongs to; deleting the client deletes the unit. */
  client: Type.Optional(Nullable(UidReference)),
});

export const BusinessUnitSchema = Type.Object({ ...namedRecordFields, client: Nullable(ClientReference) }, { title: 'BusinessUnitDto' });

/** Spec definition `CostCenterEditDto`: on edit, only the fields given non-null apply. */
export const CostCenterBody = Type.Object({ name: Type.Optional(Nullable(Name)) });
export const CostCenterSchema = Type.Object(namedRecordFields, { title: 'CostCenterDto' });

/** Spec definitions `DomainEditDto` / `SubDomainEditDto`. */
export const DomainBody = Type.Object({ name: Name });
export const DomainSchema = Type.Object(namedRecordFields, { title: 'DomainDto' });
export const SubDomainBody = Type.Object({ name: Name });
export const SubDomainSchema = Type.Object(namedRecordFields, { title: 'SubDomainDto' });
