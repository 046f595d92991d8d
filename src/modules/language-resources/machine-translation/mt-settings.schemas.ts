import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/** Wire shapes of MT settings, MT and Language AI (spec definitions named on each; docs/machine-translation.md). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });

export const MtSettingsUidParams = Type.Object({ mtsUid: recordUid('mtSettings') });
export const TranslateParams = Type.Object({ mtSettingsUid: recordUid('mtSettings') });

export const ListMtSettingsQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Settings whose name contains this, ignoring case.' })),
  ...PagingQuery,
  sort: Type.Optional(Type.Union([Type.Literal('NAME')], { default: 'NAME' })),
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Literal('ASC'), Type.Literal('DESC')], { default: 'asc' }),
  ),
});
export type ListMtSettingsQuery = Static<typeof ListMtSettingsQuery>;

const Langs = Type.Object({
  sourceLang: Lang,
  targetLangs: Type.Array(Lang, { minItems: 1, maxItems: 500 }),
});

/** OpenTMS extension: the body that creates and edits MT settings (the published API has no such operation). */
export const MtSettingsEditBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'The engine type, one of GET /api2/v1/machineTranslateSettings/types; only the available ones may be created. Cannot change on edit.',
  }),
  default_: Type.Optional(
    Type.Boolean({ description: "The organization's default settings (one at most: setting it clears the others)." }),
  ),
  includeTags: Type.Optional(
    Type.Boolean({
      description:
        'true (default): inline tags travel through the engine as markup it keeps; false: the engine gets text only and tags are put back by position.',
    }),
  ),
  args: Type.Optional(
    Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
      description:
        'Non-secret arguments of the engine (Apertium: `url` of the apertium-apy server, default http://127.0.0.1:2737). Shown in answers.',
    }),
  ),
  credentials: Type.Optional(
    Nullable(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 4096 }), {
        description:
          'Secret arguments (API keys). Stored encrypted, never answered nor logged. On edit: left out keeps the stored ones, null removes them, an object replaces them.',
      }),
    ),
  ),
  langs: Type.Optional(Langs),
});
export type MtSettingsEditBody = Static<typeof MtSettingsEditBody>;

/** Spec definition `MachineTranslateSettingsPbmDto`. */
export const MtSettingsSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    baseName: Type.String({ description: "The engine's name." }),
    name: Type.String(),
    type: Type.String(),
    default_: Type.Boolean(),
    includeTags: Type.Boolean(),
    mtQualityEstimation: Type.Boolean({ description: 'Always false: OpenTMS has no MT quality estimation.' }),
    args: Type.Record(Type.String(), Type.String(), { description: 'The non-secret arguments; credentials are never shown.' }),
    payForMtPossible: Type.Boolean(),
    payForMtActive: Type.Boolean(),
    charCount: Type.Integer({ description: 'Characters sent to the engine this month (UTC) by the organization through these settings.' }),
    sharingSettings: Type.Integer(),
    langs: Nullable(Type.Object({ id: Nullable(Type.String()), sourceLang: Type.String(), targetLangs: Type.Array(Type.String()) })),
  },
  { title: 'MachineTranslateSettingsPbmDto' },
);
export type MtSettingsDto = Static<typeof MtSettingsSchema>;
export const MtSettingsPage = PageOf(MtSettingsSchema, 'PageDtoMachineTranslateSettingsPbmDto');

/** Spec definition `TypesDto`. */
export const MtTypesSchema = Type.Object({ types: Type.Array(Type.String()) }, { title: 'TypesDto' });

/** Spec definition `MachineTranslateStatusDto`. */
export const MtStatusSchema = Type.Object({ ok: Type.Boolean(), error: Nullable(Type.String()) }, { title: 'MachineTranslateStatusDto' });

/** Spec definition `TranslationRequestExtendedDto`. */
export const TranslateBody = Type.Object({
  sourceTexts: Type.Array(Type.String({ maxLength: 100_000 }), { minItems: 1, maxItems: 10_000 }),
  from: Lang,
  to: Lang,
  filename: Type.Optional(Type.String({ maxLength: 255 })),
});
export type TranslateBody = Static<typeof TranslateBody>;

/** Spec definition `MachineTranslateResponse`. */
export const TranslateResponse = Type.Object({ translations: Type.Array(Type.String()) }, { title: 'MachineTranslateResponse' });

/** Spec definition `ConsumedMtusDto`. */
export const ConsumedMtusSchema = Type.Object({ consumedMtus: Type.Integer() }, { title: 'ConsumedMtusDto' });

/** Spec definition `MemsourceTranslateProfileSimpleDto`, with the uid and name of the settings it stands for. */
export const TranslateProfileSchema = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    memsourceTranslate: Type.Object({ glossarySupported: Type.Boolean(), charCount: Type.Integer() }),
    locked: Type.Boolean(),
  },
  { title: 'MemsourceTranslateProfileSimpleDto' },
);
export const TranslateProfilePage = PageOf(TranslateProfileSchema, 'PageDtoMemsourceTranslateProfileSimpleDto');
export const ListProfilesQuery = Type.Object({ ...PagingQuery });
