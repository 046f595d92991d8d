/**
 * Which machine-translation settings a project (or project template) uses for each target
 * language (issue 17). Pure.
 *
 * The rules:
 * 1. **v3 `PUT …/mtSettings`** (`applyMtAssignmentUpdate`), body `machineTranslateSettings`
 *    (bulk) and/or `machineTranslateSettingsPerLangs` (per language; only the listed target
 *    locales change):
 *    - neither given: the assignment stays as it is;
 *    - only bulk: `all` with that settings id, or `none` when it is null;
 *    - per-language given (with or without bulk): the per-language values win. The map starts as
 *      the current per-language map (a bulk value of the body is then ignored); when the current assignment is not per-language, it starts
 *      with every target language set to the value being switched from: the bulk value of the
 *      body when it has one (null: nothing), else the current `all` settings (`none`: nothing).
 *      Then each listed language is set (null: removed); a language listed twice takes its last value.
 * 2. **v1 `PUT …/mtSettings`** (`replaceAll`): "This will erase all mtSettings per language":
 *    `all` with the settings id, or `none` when it is null.
 * 3. **v1 `PUT …/mtSettingsPerLanguage`** (`replacePerLanguage`): "This will erase mtSettings for
 *    project": exactly the listed languages, nothing else.
 * 4. A per-language map left with no language is `none`. Languages are compared as given (the
 *    caller normalizes their case), and the caller validates that every listed language is a
 *    target language of the project: languages listed outside `targetLangs` are stored as given.
 */

/** The stored assignment: `all` for every target language, or per language (a language absent = none). Never both. */
export type MtAssignment =
  { kind: 'none' } | { kind: 'all'; settingsId: string } | { kind: 'perLanguage'; byLang: ReadonlyMap<string, string | null> };

/** The body of a v3 `PUT …/mtSettings`. */
export interface MtAssignmentUpdate {
  /** `machineTranslateSettings`: undefined = not in the body; null = clear. */
  bulk?: string | null;
  /** `machineTranslateSettingsPerLangs`: the target languages to change. */
  perLanguage?: ReadonlyArray<{ targetLang: string; settingsId: string | null }>;
}

const NONE: MtAssignment = { kind: 'none' };

function normalized(byLang: Map<string, string | null>): MtAssignment {
  for (const [lang, id] of byLang) if (id === null) byLang.delete(lang);
  return byLang.size === 0 ? NONE : { kind: 'perLanguage', byLang };
}

/** The assignment after a v3 `PUT …/mtSettings` (rule 1). */
export function applyMtAssignmentUpdate(current: MtAssignment, update: MtAssignmentUpdate, targetLangs: readonly string[]): MtAssignment {
  if (update.perLanguage === undefined) {
    if (update.bulk === undefined) return current;
    return replaceAll(update.bulk);
  }
  const byLang = new Map<string, string | null>();
  if (current.kind === 'perLanguage') {
    for (const [lang, id] of current.byLang) byLang.set(lang, id);
  } else {
    const switchedFrom = update.bulk !== undefined ? update.bulk : current.kind === 'all' ? current.settingsId : null;
    if (switchedFrom !== null) for (const lang of targetLangs) byLang.set(lang, switchedFrom);
  }
  for (const { targetLang, settingsId } of update.perLanguage) byLang.set(targetLang, settingsId);
  return normalized(byLang);
}

/** The assignment after a v1 `PUT …/mtSettings`: one settings for every language, or none (rule 2). */
export function replaceAll(settingsId: string | null): MtAssignment {
  return settingsId === null ? NONE : { kind: 'all', settingsId };
}

/** The assignment after a v1 `PUT …/mtSettingsPerLanguage`: exactly the listed languages (rule 3). */
export function replacePerLanguage(list: ReadonlyArray<{ targetLang: string; settingsId: string | null }>): MtAssignment {
  const byLang = new Map<string, string | null>();
  for (const { targetLang, settingsId } of list) byLang.set(targetLang, settingsId);
  return normalized(byLang);
}

/** The settings id machine translation uses for a target language, or null for none. */
export function settingsForLanguage(a: MtAssignment, targetLang: string): string | null {
  if (a.kind === 'none') return null;
  if (a.kind === 'all') return a.settingsId;
  return a.byLang.get(targetLang) ?? null;
}
