import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';

/** Wire shapes of the MT settings of projects and templates and of a job's translation resources (spec definitions named on each). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });
const Key = Type.String({ minLength: 1, maxLength: 64 });

/** Spec `IdReference`: the settings' id or uid. */
const IdReference = Type.Object({ id: Key });
/** The v3 template body and PATCH name settings by `uid`; `id` (uid or numeric id) is taken too. */
const uidOrIdReference = (description: string) => Type.Object({ uid: Type.Optional(Key), id: Type.Optional(Key) }, { description });
export type UidOrIdReference = Static<ReturnType<typeof uidOrIdReference>>;

/** Spec `EditProjectMTSettingsDto`. */
export const EditProjectMtSettingsBody = Type.Object({
  machineTranslateSettings: Type.Optional(IdReference),
});
export type EditProjectMtSettingsBody = Static<typeof EditProjectMtSettingsBody>;

/** Spec `EditProjectMTSettPerLangListDto`. */
export const EditProjectMtSettingsPerLangBody = Type.Object({
  mtSettingsPerLangList: Type.Optional(
    Type.Array(
      Type.Object({ targetLang: Lang, machineTranslateSettings: Type.Optional(IdReference) }, { title: 'EditProjectMTSettPerLangDto' }),
      { maxItems: 500 },
    ),
  ),
});
export type EditProjectMtSettingsPerLangBody = Static<typeof EditProjectMtSettingsPerLangBody>;

/** PUT /api2/v3/projectTemplates/{projectTemplateUid}/mtSettings (service description; not in the Swagger). */
export const EditTemplateMtSettingsV3Body = Type.Object({
  machineTranslateSettings: Type.Optional(
    Nullable(uidOrIdReference('The settings for every target language (`uid`, or `id`); null removes them.')),
  ),
  machineTranslateSettingsPerLangs: Type.Optional(
    Type.Array(
      Type.Object({
        targetLang: Lang,
        machineTranslateSettings: Type.Optional(uidOrIdReference('Left out (or null): the target language has no MT settings.')),
      }),
      { maxItems: 500, description: 'Only the listed target languages change; an empty list changes nothing.' },
    ),
  ),
});
export type EditTemplateMtSettingsV3Body = Static<typeof EditTemplateMtSettingsV3Body>;

const MtSettingsLangs = Type.Object(
  { id: Nullable(Type.String()), sourceLang: Type.String(), targetLangs: Type.Array(Type.String()) },
  { title: 'MachineTranslateSettingsLangsDto' },
);

/** Spec `MachineTranslateSettingsDto`. */
export const MachineTranslateSettingsSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    baseName: Type.String({ description: "The engine's name." }),
    name: Type.String(),
    type: Type.String(),
    default_: Type.Boolean(),
    includeTags: Type.Boolean(),
    mtQualityEstimation: Type.Boolean({ description: 'Always false: OpenTMS has no MT quality estimation.' }),
    enabled: Type.Boolean(),
    args: Type.Record(Type.String(), Type.String(), { description: 'The non-secret arguments; credentials are never shown.' }),
    langs: Nullable(MtSettingsLangs),
  },
  { title: 'MachineTranslateSettingsDto' },
);
export type MachineTranslateSettings = Static<typeof MachineTranslateSettingsSchema>;

/** Spec `MTSettingsPerLanguageListDto`. */
export const MtSettingsPerLanguageList = Type.Object(
  {
    mtSettingsPerLangList: Type.Array(
      Type.Object(
        {
          targetLang: Nullable(Type.String({ description: 'null: the settings are for every target language.' })),
          machineTranslateSettings: MachineTranslateSettingsSchema,
        },
        { title: 'MTSettingsPerLanguageDto' },
      ),
    ),
  },
  { title: 'MTSettingsPerLanguageListDto' },
);
export type MtSettingsPerLanguageList = Static<typeof MtSettingsPerLanguageList>;

/** Spec `MachineTranslateSettingsReference`. */
export const MtSettingsReference = Type.Object(
  { id: Type.String(), uid: Type.String(), name: Type.String(), type: Type.String() },
  { title: 'MachineTranslateSettingsReference' },
);

/** Spec `ObjectReference` (an open object): the record's id and uid. */
const ObjectReference = Type.Object({ id: Type.String(), uid: Type.String() }, { title: 'ObjectReference' });

/** Spec `TranslationResourcesDto`. */
export const TranslationResourcesSchema = Type.Object(
  {
    machineTranslateSettings: Nullable(MtSettingsReference),
    translationMemories: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          transMem: ObjectReference,
          name: Type.String(),
          workflowStep: Nullable(ObjectReference),
          targetLang: Nullable(Type.String()),
          penalty: Type.Number(),
          readMode: Type.Boolean(),
        },
        { title: 'ProjectTranslationMemoryReference' },
      ),
    ),
    termBases: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          termBase: ObjectReference,
          name: Type.String(),
          writeMode: Type.Boolean(),
          targetLang: Nullable(Type.String()),
          readMode: Type.Boolean(),
          workflowStep: Nullable(ObjectReference),
        },
        { title: 'ProjectTermBaseReference' },
      ),
    ),
  },
  { title: 'TranslationResourcesDto' },
);
export type TranslationResources = Static<typeof TranslationResourcesSchema>;
