/**
 * The role-specific part of a user record (spec definitions ADMIN, PROJECT_MANAGER, LINGUIST,
 * GUEST, SUBMITTER and their _EDIT / _RESPONSE forms): rights with their defaults, locale lists
 * and references to other records. Pure: no I/O, so the defaults are table-tested.
 *
 * Defaults are the spec's "Default: …" notes, except where the service description says
 * otherwise: the client and subdomain rights of project managers (clientCreate,
 * clientViewOther, clientEditOther, clientDeleteOther, subDomainCreate) are off by default
 * (description, "Access rules").
 */
export type Role = 'SYS_ADMIN' | 'ADMIN' | 'PROJECT_MANAGER' | 'LINGUIST' | 'GUEST' | 'SUBMITTER';

/** Rights of project managers, as the spec names them, with their defaults. */
export const PROJECT_MANAGER_RIGHTS = {
  projectCreate: true,
  projectViewOther: true,
  projectEditOther: true,
  projectDeleteOther: true,
  projectTemplateCreate: true,
  projectTemplateViewOther: true,
  projectTemplateEditOther: true,
  projectTemplateDeleteOther: true,
  transMemoryCreate: true,
  transMemoryViewOther: true,
  transMemoryEditOther: true,
  transMemoryDeleteOther: true,
  transMemoryExportOther: true,
  transMemoryImportOther: true,
  termBaseCreate: true,
  termBaseViewOther: true,
  termBaseEditOther: true,
  termBaseDeleteOther: true,
  termBaseExportOther: true,
  termBaseImportOther: true,
  termBaseApproveOther: true,
  userCreate: true,
  userViewOther: true,
  userEditOther: true,
  userDeleteOther: true,
  clientDomainSubDomainCreate: true,
  clientDomainSubDomainViewOther: true,
  clientDomainSubDomainEditOther: true,
  clientDomainSubDomainDeleteOther: true,
  vendorCreate: true,
  vendorViewOther: true,
  vendorEditOther: true,
  vendorDeleteOther: true,
  setupServer: true,
  // Named by the service description; off by default.
  clientCreate: false,
  clientViewOther: false,
  clientEditOther: false,
  clientDeleteOther: false,
  subDomainCreate: false,
} as const;

export type ProjectManagerRight = keyof typeof PROJECT_MANAGER_RIGHTS;

const LINGUIST_RIGHTS = { editAllTermsInTB: false, editTranslationsInTM: false, enableMT: true, mayRejectJobs: false } as const;

const GUEST_RIGHTS = {
  enableMT: true,
  projectViewOther: true,
  projectViewOtherLinguist: true,
  projectViewOtherEditor: true,
  transMemoryViewOther: true,
  transMemoryEditOther: true,
  transMemoryExportOther: true,
  transMemoryImportOther: true,
  termBaseViewOther: true,
  termBaseEditOther: true,
  termBaseExportOther: true,
  termBaseImportOther: true,
  termBaseApproveOther: true,
} as const;

const SUBMITTER_RIGHTS = { projectViewCreatedByOtherSubmitters: false } as const;

/** What a reference field points at; decides which table validates it. */
export type ReferenceKind =
  'client' | 'domain' | 'subDomain' | 'workflowStep' | 'businessUnit' | 'netRateScheme' | 'priceList' | 'automationWidget';

interface RoleShape {
  rights: Readonly<Record<string, boolean>>;
  locales: readonly string[];
  /** Fields holding lists of references, `[{uid}]` (`[{id}]` for automation widgets). */
  referenceLists: Readonly<Record<string, ReferenceKind>>;
  /** Fields holding one reference, `{uid}`. */
  references: Readonly<Record<string, ReferenceKind>>;
  strings: Readonly<Record<string, string>>;
}

const PM_AND_LINGUIST_LISTS = { workflowSteps: 'workflowStep', clients: 'client', domains: 'domain', subDomains: 'subDomain' } as const;

export const ROLE_SHAPES: Record<Role, RoleShape> = {
  SYS_ADMIN: { rights: {}, locales: [], referenceLists: {}, references: {}, strings: {} },
  ADMIN: { rights: {}, locales: [], referenceLists: {}, references: {}, strings: {} },
  PROJECT_MANAGER: {
    rights: PROJECT_MANAGER_RIGHTS,
    locales: ['sourceLocales', 'targetLocales'],
    referenceLists: {
      ...PM_AND_LINGUIST_LISTS,
      projectClients: 'client',
      projectBusinessUnits: 'businessUnit',
      projectTemplateClients: 'client',
      projectTemplateBusinessUnits: 'businessUnit',
      transMemoryClients: 'client',
      transMemoryBusinessUnits: 'businessUnit',
      termBaseClients: 'client',
      termBaseBusinessUnits: 'businessUnit',
    },
    references: {},
    strings: { dashboardSetting: 'OWN_DATA' },
  },
  LINGUIST: {
    rights: LINGUIST_RIGHTS,
    locales: ['sourceLocales', 'targetLocales'],
    referenceLists: PM_AND_LINGUIST_LISTS,
    references: { netRateScheme: 'netRateScheme', translationPriceList: 'priceList' },
    strings: {},
  },
  GUEST: { rights: GUEST_RIGHTS, locales: [], referenceLists: {}, references: { client: 'client' }, strings: {} },
  SUBMITTER: {
    rights: SUBMITTER_RIGHTS,
    locales: [],
    referenceLists: { automationWidgets: 'automationWidget' },
    references: {},
    strings: {},
  },
};

/** The role-specific settings as stored: only what applies to the role, every right present. */
export interface RoleSettings {
  rights: Record<string, boolean>;
  locales: Record<string, string[]>;
  /** Reference lists as uids (automation widgets: ids). */
  referenceLists: Record<string, string[]>;
  references: Record<string, string | null>;
  strings: Record<string, string>;
}

export const DASHBOARD_SETTINGS = ['OWN_DATA', 'ALL_DATA'] as const;

export class RoleSettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function referenceKey(value: unknown, field: string, kind: ReferenceKind): string {
  const key = kind === 'automationWidget' ? 'id' : 'uid';
  if (typeof value !== 'object' || value === null) throw new RoleSettingsError(field, `${field} must be an object with "${key}"`);
  const raw = (value as Record<string, unknown>)[key];
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new RoleSettingsError(field, `${field} must have "${key}"`);
  const text = String(raw);
  if (text.length === 0 || text.length > 64) throw new RoleSettingsError(field, `${field}.${key} is not valid`);
  return text;
}

/**
 * Builds the stored settings for `role` from a create/edit request body. Omitted fields take
 * their defaults on create, and keep `previous` values on edit when given (the v3 edit replaces
 * the record, but rights a client did not send are not silently reset).
 */
export function roleSettingsFromInput(role: Role, input: Record<string, unknown>, previous?: RoleSettings): RoleSettings {
  const shape = ROLE_SHAPES[role];
  const settings: RoleSettings = { rights: {}, locales: {}, referenceLists: {}, references: {}, strings: {} };
  for (const [right, fallback] of Object.entries(shape.rights)) {
    const given = input[right];
    if (given !== undefined && given !== null && typeof given !== 'boolean')
      throw new RoleSettingsError(right, `${right} must be true or false`);
    settings.rights[right] = typeof given === 'boolean' ? given : (previous?.rights[right] ?? fallback);
  }
  for (const field of shape.locales) {
    const given = input[field];
    if (given === undefined || given === null) {
      settings.locales[field] = previous?.locales[field] ?? [];
      continue;
    }
    if (!Array.isArray(given) || given.some((l) => typeof l !== 'string'))
      throw new RoleSettingsError(field, `${field} must be a list of language codes`);
    settings.locales[field] = [...new Set(given as string[])];
  }
  for (const [field, kind] of Object.entries(shape.referenceLists)) {
    const given = input[field];
    if (given === undefined || given === null) {
      settings.referenceLists[field] = previous?.referenceLists[field] ?? [];
      continue;
    }
    if (!Array.isArray(given)) throw new RoleSettingsError(field, `${field} must be a list`);
    settings.referenceLists[field] = [...new Set(given.map((v, i) => referenceKey(v, `${field}[${i}]`, kind)))];
  }
  for (const [field, kind] of Object.entries(shape.references)) {
    const given = input[field];
    if (given === undefined) settings.references[field] = previous?.references[field] ?? null;
    else settings.references[field] = given === null ? null : referenceKey(given, field, kind);
  }
  for (const [field, fallback] of Object.entries(shape.strings)) {
    const given = input[field];
    if (given === undefined || given === null) {
      settings.strings[field] = previous?.strings[field] ?? fallback;
      continue;
    }
    if (field === 'dashboardSetting' && !(DASHBOARD_SETTINGS as readonly unknown[]).includes(given)) {
      throw new RoleSettingsError(field, `${field} must be one of ${DASHBOARD_SETTINGS.join(', ')}`);
    }
    settings.strings[field] = String(given);
  }
  if (role === 'GUEST' && !settings.references.client) throw new RoleSettingsError('client', 'a GUEST user needs a client');
  return settings;
}

export function parseRoleSettings(role: Role, json: string): RoleSettings {
  const stored = JSON.parse(json || '{}') as Partial<RoleSettings>;
  const empty: RoleSettings = { rights: {}, locales: {}, referenceLists: {}, references: {}, strings: {} };
  const merged: RoleSettings = { ...empty, ...stored } as RoleSettings;
  // Rights added after a user was stored take their default.
  for (const [right, fallback] of Object.entries(ROLE_SHAPES[role].rights)) {
    if (typeof merged.rights[right] !== 'boolean') merged.rights[right] = fallback;
  }
  return merged;
}

/**
 * Whether a user of `role` with `settings` holds `right`. ADMIN holds every right; project
 * managers hold what their settings say; other roles hold none of the management rights.
 */
export function hasRight(role: Role, settings: RoleSettings | null, right: ProjectManagerRight): boolean {
  if (role === 'ADMIN' || role === 'SYS_ADMIN') return true;
  if (role !== 'PROJECT_MANAGER') return false;
  return settings?.rights[right] ?? PROJECT_MANAGER_RIGHTS[right];
}

/**
 * Whether a user of `role` with `settings` holds the right named `right`, whichever role's right it
 * is: ADMIN holds every right; project managers as `hasRight` says; other roles what their settings
 * say, else their role's default (GUEST `projectViewOther` true, SUBMITTER
 * `projectViewCreatedByOtherSubmitters` false); a right the role does not have is not held.
 */
export function holdsRight(role: Role, settings: RoleSettings | null, right: string): boolean {
  if (role === 'ADMIN' || role === 'SYS_ADMIN') return true;
  if (role === 'PROJECT_MANAGER' && right in PROJECT_MANAGER_RIGHTS) return hasRight(role, settings, right as ProjectManagerRight);
  const defaults = ROLE_SHAPES[role].rights as Readonly<Record<string, boolean>>;
  if (!(right in defaults)) return false;
  return settings?.rights[right] ?? defaults[right] ?? false;
}

/** Every reference the settings hold, grouped by kind, for validation against their tables. */
export function referencedKeys(role: Role, settings: RoleSettings): Map<ReferenceKind, Set<string>> {
  const shape = ROLE_SHAPES[role];
  const byKind = new Map<ReferenceKind, Set<string>>();
  const add = (kind: ReferenceKind, key: string) => {
    let set = byKind.get(kind);
    if (!set) byKind.set(kind, (set = new Set()));
    set.add(key);
  };
  for (const [field, kind] of Object.entries(shape.referenceLists)) for (const key of settings.referenceLists[field] ?? []) add(kind, key);
  for (const [field, kind] of Object.entries(shape.references)) {
    const key = settings.references[field];
    if (key) add(kind, key);
  }
  return byKind;
}

/**
 * The settings without the references of `kind` to `keys` (a deleted client, domain, …), or
 * null when they hold none of them. A deleted record disappears from every list that named it.
 */
export function withoutReferences(role: Role, settings: RoleSettings, kind: ReferenceKind, keys: ReadonlySet<string>): RoleSettings | null {
  const shape = ROLE_SHAPES[role];
  let changed = false;
  const referenceLists = { ...settings.referenceLists };
  for (const [field, fieldKind] of Object.entries(shape.referenceLists)) {
    if (fieldKind !== kind) continue;
    const kept = (referenceLists[field] ?? []).filter((key) => !keys.has(key));
    if (kept.length !== (referenceLists[field] ?? []).length) {
      referenceLists[field] = kept;
      changed = true;
    }
  }
  const references = { ...settings.references };
  for (const [field, fieldKind] of Object.entries(shape.references)) {
    const key = references[field];
    if (fieldKind === kind && key && keys.has(key)) {
      references[field] = null;
      changed = true;
    }
  }
  return changed ? { ...settings, referenceLists, references } : null;
}
