import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/**
 * Segmentation rules (spec definitions SegmentationRuleDto, SegmentationRuleReference,
 * EditSegmentationRuleDto): the organization's SRX files with their metadata
 * (docs/segmentation-rules.md).
 */

export const NAME_MAX_LENGTH = 255;

/** Spec definition `SegmentationRuleReference` (the items of the list). */
export const SegmentationRuleReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    locale: Type.String(),
    primary: Type.Boolean(),
    filename: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
  },
  { title: 'SegmentationRuleReference' },
);

/** Spec definition `SegmentationRuleDto`. */
export const SegmentationRuleDto = Type.Object(
  {
    ...SegmentationRuleReference.properties,
    createdBy: Nullable(UserReference),
  },
  { title: 'SegmentationRuleDto', description: 'segmentation rule object' },
);
export type SegmentationRuleDto = Static<typeof SegmentationRuleDto>;

export const SegmentationRulePage = PageOf(SegmentationRuleReference, 'PageDtoSegmentationRuleReference');
export const OwnerPage = PageOf(UserReference, 'PageDtoUserReference');

const Language = Type.String({ minLength: 1, maxLength: 64 });

export const SegmentationRuleListQuery = Type.Object({
  locales: Type.Optional(
    Type.Array(Language, { maxItems: 100, description: 'Rules for any of these languages (the 2024 name of `languages`)' }),
  ),
  languages: Type.Optional(Type.Array(Language, { maxItems: 100, description: 'Rules for any of these languages; not with `language`' })),
  language: Type.Optional(
    Type.String({ ...Language, description: 'Rules for this language; not with `languages` (400 when both are given)' }),
  ),
  ...PagingQuery,
});
export type SegmentationRuleListQuery = Static<typeof SegmentationRuleListQuery>;

export const OwnerListQuery = Type.Object({ ...PagingQuery });

/**
 * The `segRule` header of createSegmentationRule: `{name, locale, primary, filename}` (the spec's
 * example `{name:'name', locale:'en', primary:'false', filename:'extra_file.xml'}`: `primary` as
 * a boolean or the strings "true"/"false").
 */
export const SegRuleHeader = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
    locale: Language,
    primary: Type.Optional(Type.Union([Type.Boolean(), Type.Enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False'])])),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { title: 'SegRuleHeader' },
);
export type SegRuleHeader = Static<typeof SegRuleHeader>;

/** Spec definition `EditSegmentationRuleDto`. */
export const EditSegmentationRuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
    primary: Type.Optional(
      Type.Boolean({ description: 'Default: false (left out, the rule is no longer primary: the body replaces the metadata).' }),
    ),
  },
  { title: 'EditSegmentationRuleDto' },
);
export type EditSegmentationRuleBody = Static<typeof EditSegmentationRuleBody>;

const RuleKey = recordUid('segmentationRules');
export const SegRuleIdParams = Type.Object({ segRuleId: RuleKey });
export const SegRuleUidParams = Type.Object({ segRuleUid: RuleKey });
export const LocaleParams = Type.Object({ locale: Language });
