import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
// Spec definitions PriceListReference and DiscountSchemeReference (the fields of NetRateSchemeReference).
import { NamedReference, NetRateSchemeReference, PriceListReference, UidReference, WorkflowStepReference } from '../setup-records/index.js';

/** Wire shapes of vendors (the buyer's view of a link), buyers (the vendor's view) and vendor tokens. */

const Locales = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 500 });
const References = Type.Array(UidReference, { maxItems: 1000 });
const NamedReferences = Type.Array(NamedReference);

/** Spec definition `CreateVendorDto`. */
export const CreateVendorBody = Type.Object({
  vendorToken: Type.String({
    minLength: 1,
    maxLength: 255,
    description: "The vendor organization's token (an ADMIN of the vendor reads it with GET /api2/v1/vendorToken).",
  }),
  priceList: Type.Optional(Nullable(UidReference)),
  netRateScheme: Type.Optional(Nullable(UidReference)),
  sourceLocales: Type.Optional(Locales),
  targetLocales: Type.Optional(Locales),
  clients: Type.Optional(References),
  domains: Type.Optional(References),
  subDomains: Type.Optional(References),
  workflowSteps: Type.Optional(References),
});

/**
 * Spec definition `VendorDto`, with the fields the changelog adds (`active`, `buyerOwner`,
 * `createdBy`, `dateCreated`, `timezone`; EXTENSION_FIELDS of the contract check).
 */
export const VendorSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String({ description: "The vendor organization's name." }),
    vendorToken: Type.String({ description: 'The token the link was made with.' }),
    priceList: Nullable(PriceListReference),
    netRateScheme: Nullable(NetRateSchemeReference),
    sourceLocales: Type.Array(Type.String()),
    targetLocales: Type.Array(Type.String()),
    clients: NamedReferences,
    domains: NamedReferences,
    subDomains: NamedReferences,
    workflowSteps: Type.Array(WorkflowStepReference),
    active: Type.Boolean({ description: 'Whether the vendor accepts work from this buyer (set by the vendor, updateBuyer).' }),
    buyerOwner: Nullable(UserReference),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    timezone: Type.String(),
  },
  { title: 'VendorDto' },
);

export const VendorPage = PageOf(VendorSchema, 'PageDtoVendorDto');

export const VendorListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the vendor organization’s name, ignoring case' })),
  ...PagingQuery,
});

export const VendorUidParams = Type.Object({ vendorUid: recordUid('vendors') });

/** Body of deleteVendors (designed: the published batch deletes take `{ <records>: [{uid}] }`). */
export const DeleteVendorsBody = Type.Object({ vendors: Type.Array(UidReference, { minItems: 1, maxItems: 1000 }) });

/** Designed: the vendor's view of a link (modelled on BuyerReference plus the vendor-side settings). */
export const BuyerSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String({ description: 'The uid of the link: the buyer sees the same link as a vendor with this uid.' }),
    name: Type.String({ description: "The buyer organization's name." }),
    organization: Type.Object({ uid: Type.String(), name: Type.String() }),
    active: Type.Boolean(),
    buyerOwner: Nullable(UserReference),
    timezone: Type.String(),
    sourceLocales: Type.Array(Type.String()),
    targetLocales: Type.Array(Type.String()),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
  },
  { title: 'BuyerDto' },
);

export const BuyerPage = PageOf(BuyerSchema, 'PageDtoBuyerDto');

export const BuyerListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the buyer organization’s name, ignoring case' })),
  active: Type.Optional(Type.Boolean()),
  ...PagingQuery,
});

export const BuyerUidParams = Type.Object({ buyerUid: recordUid('buyers') });

/** Designed: the vendor-side settings of a link; fields left out keep their values. */
export const UpdateBuyerBody = Type.Object({
  active: Type.Optional(Type.Boolean()),
  buyerOwner: Type.Optional(Nullable(UidReference)),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

/** Designed (OpenTMS extension): the caller organization's vendor token. */
export const VendorTokenSchema = Type.Object(
  { vendorToken: Type.String(), dateCreated: Type.String({ format: 'date-time' }) },
  { title: 'VendorTokenDto' },
);
