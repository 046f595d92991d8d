import { Type } from 'typebox';

/** Spec definition `LanguageDto`. */
export const LanguageSchema = Type.Object(
  {
    code: Type.String(),
    name: Type.String(),
    rfc: Type.String(),
    android: Type.String(),
    androidBcp: Type.String(),
  },
  { title: 'LanguageDto' },
);

/** Spec definition `LanguageListDto`. */
export const LanguageListSchema = Type.Object({ languages: Type.Array(LanguageSchema) }, { title: 'LanguageListDto' });

export const LanguageListQuery = Type.Object({
  active: Type.Optional(
    Type.Boolean({
      description: 'true: only languages offered for new work; false: only the legacy codes kept for older data; omitted: all.',
    }),
  ),
});
