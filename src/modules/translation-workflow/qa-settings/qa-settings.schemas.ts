import { Type } from 'typebox';
import type { Static } from 'typebox';
import { CUSTOM_CHECK_NAMES, QA_CHECK_NAMES } from '../../../domain/quality-assurance/types.js';

/**
 * Wire shapes of the QA settings operations (docs/qa-settings.md): QASettingsDtoV2 (with
 * OpenTMS's `customChecks` and `inconsistencyScope`), EditQASettingsDtoV2, QualityAssuranceChecksDtoV2
 * and EnabledQualityChecksDto.
 */

/** RegexpCheckRuleDtoV2: an absent side is left out. */
export const RegexpRule = Type.Object({
  id: Type.String(),
  description: Type.String(),
  sourceRegexp: Type.Optional(Type.String({ description: 'A Java regular expression the source must match for the rule to apply.' })),
  targetRegexp: Type.Optional(Type.String({ description: 'A Java regular expression whose match in the target is reported.' })),
  ignorable: Type.Boolean(),
  instant: Type.Boolean(),
});

/** QACheckDtoV2 and its subtypes VOID, NUMBER, STRING, REGEX, MORAVIA. */
const QaCheck = Type.Object({
  type: Type.Enum(['VOID', 'NUMBER', 'STRING', 'REGEX', 'MORAVIA']),
  name: Type.Enum([...QA_CHECK_NAMES]),
  enabled: Type.Boolean(),
  ignorable: Type.Optional(Type.Boolean()),
  instant: Type.Optional(Type.Boolean()),
  value: Type.Optional(
    Type.Union([Type.Number(), Type.String()], {
      description: 'NUMBER: the limit, when set; STRING: the forbidden strings, comma-separated.',
    }),
  ),
  profile: Type.Optional(Type.String({ description: 'MORAVIA: the profile, kept and shown back (OpenTMS has no Moravia checker).' })),
  rules: Type.Optional(Type.Array(RegexpRule)),
});

const CustomCheck = Type.Object({ name: Type.Enum([...CUSTOM_CHECK_NAMES]), enabled: Type.Boolean(), ignorable: Type.Boolean() });

/** QASettingsDtoV2, every check present, with OpenTMS's extension fields. */
export const QaSettingsSchema = Type.Object({
  checks: Type.Array(QaCheck),
  customChecks: Type.Array(CustomCheck, {
    description: 'OpenTMS extension: its own checks beyond Phrase’s list, reported as CustomQA warnings whose subType is the name.',
  }),
  inconsistencyScope: Type.Enum(['JOB', 'PROJECT']),
});

/**
 * EditQASettingsDtoV2 (each check a free-form object, read by the service: docs/qa-settings.md,
 * "Editing"), with the extension fields.
 */
export const EditQaSettingsBody = Type.Object({
  checks: Type.Optional(
    Type.Array(Type.Unknown(), {
      description:
        'Checks to change, each `{name, type, enabled, ignorable, instant}` with `value` (NUMBER, STRING), `profile` (MORAVIA) or `rules` (REGEX). Checks not listed, and fields a check leaves out, keep their values.',
    }),
  ),
  customChecks: Type.Optional(
    Type.Array(Type.Unknown(), {
      description: `OpenTMS extension: \`[{name, enabled, ignorable}]\` for ${CUSTOM_CHECK_NAMES.join(', ')}; those not listed keep their values.`,
    }),
  ),
  inconsistencyScope: Type.Optional(
    Type.String({
      description:
        'OpenTMS extension: `JOB` (default) looks for inconsistent translations within the job, `PROJECT` across the project’s jobs of the same target language.',
    }),
  ),
});
export type EditQaSettingsBody = Static<typeof EditQaSettingsBody>;

const EnabledCheck = Type.Object({
  checkerType: Type.String(),
  ignorable: Type.Boolean(),
  instant: Type.Boolean(),
  context: Type.Optional(
    Type.Object({
      moraviaProfileId: Type.Optional(Type.String()),
      customQaDisplayName: Type.Optional(Type.String()),
      provider: Type.Optional(Type.String()),
    }),
  ),
});

/** QualityAssuranceChecksDtoV2. */
export const QaChecksSchema = Type.Object({
  forbiddenStrings: Type.Array(Type.String()),
  enabledChecks: Type.Array(EnabledCheck),
  excludeLockedSegments: Type.Boolean(),
  userCanSetInstantQA: Type.Boolean(),
  strictJobStatus: Type.Boolean(),
  regexpRules: Type.Array(RegexpRule),
});

/** EnabledQualityChecksDto. */
export const EnabledQualityChecksSchema = Type.Object({ enabledChecks: Type.Array(Type.String()) });

export const JobUidQuery = Type.Object({
  jobUid: Type.String({ minLength: 1, maxLength: 64, description: 'The job part whose settings to answer.' }),
});
