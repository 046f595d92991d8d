import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { ENGINE_TYPES } from './engines/index.js';
import { openCredentials, sealCredentials } from './credential-seal.js';
import { forgetInMemory } from './mt-cache.js';
import {
  argsOf,
  deleteMtSettingsRow,
  findMtSettings,
  insertMtSettings,
  listMtSettingsRows,
  updateMtSettings,
} from './mt-settings.repository.js';
import type { MtSettingsRow } from './mt-settings.repository.js';
import type { ListMtSettingsQuery, MtSettingsEditBody } from './mt-settings.schemas.js';

/** Rules of MT settings records (docs/machine-translation.md, "Records"). */

const db = (deps: AppDeps) => deps.database.db;

/** The settings of the caller's organization, or 404 (another organization's answer the same). */
export async function requireMtSettings(deps: AppDeps, organizationId: string, uid: string): Promise<MtSettingsRow> {
  const row = await findMtSettings(db(deps), organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Machine translate settings' });
  return row;
}

export function listMtSettings(deps: AppDeps, caller: Caller, query: ListMtSettingsQuery, page: PageRequest) {
  const order = (query.order ?? 'asc').toLowerCase() as 'asc' | 'desc';
  return listMtSettingsRows(db(deps), caller.organizationId, { name: query.name, order }, page);
}

function engineType(type: string) {
  const known = ENGINE_TYPES.find((engine) => engine.type.toLowerCase() === type.toLowerCase());
  if (!known)
    throw errors.InvalidArguments({
      reason: `Unknown engine type "${type}": see GET /api2/v1/machineTranslateSettings/types.`,
      details: [{ field: 'type', message: 'unknown engine type' }],
    });
  if (!known.available) throw errors.MtEngineNotAvailable({ type: known.type, reason: known.reason ?? 'not available' });
  return known;
}

/** The arguments and secrets of the body, checked against what the engine type takes. */
function checkedArgs(type: ReturnType<typeof engineType>, args: Record<string, string>, secrets: Record<string, string>) {
  for (const key of Object.keys(args)) {
    if (type.secretArgs.includes(key))
      throw errors.InvalidArguments({
        reason: `${key} is a secret: send it in credentials, never in args.`,
        details: [{ field: `args.${key}`, message: 'belongs in credentials' }],
      });
    if (!type.requiredArgs.includes(key) && !(type.optionalArgs ?? []).includes(key))
      throw errors.InvalidArguments({
        reason: `The ${type.type} engine takes no argument "${key}".`,
        details: [{ field: `args.${key}`, message: 'unknown argument' }],
      });
  }
  for (const key of Object.keys(secrets)) {
    if (!type.secretArgs.includes(key))
      throw errors.InvalidArguments({
        reason: `The ${type.type} engine takes no secret "${key}".`,
        details: [{ field: `credentials.${key}`, message: 'unknown secret' }],
      });
  }
  const url = args.url;
  if (url !== undefined) {
    let valid = false;
    try {
      const parsed = new URL(url);
      valid = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.username === '' && parsed.password === '';
    } catch {
      valid = false;
    }
    if (!valid)
      throw errors.InvalidArguments({
        reason: 'args.url must be an http:// or https:// URL without a user or password (send those in credentials).',
        details: [{ field: 'args.url', message: 'not an http(s) URL' }],
      });
  }
  return args;
}

function checkedLangs(langs: MtSettingsEditBody['langs']) {
  if (!langs) return null;
  return {
    sourceLang: assertLanguage('langs.sourceLang', langs.sourceLang),
    targetLangs: assertLanguages('langs.targetLangs', langs.targetLangs),
  };
}

export async function createMtSettings(deps: AppDeps, caller: Caller, body: MtSettingsEditBody): Promise<MtSettingsRow> {
  const type = engineType(body.type);
  const secrets = body.credentials ?? {};
  const args = checkedArgs(type, body.args ?? {}, secrets);
  const langs = checkedLangs(body.langs);
  return db(deps)
    .transaction()
    .execute((trx) =>
      insertMtSettings(trx, {
        organizationId: caller.organizationId,
        name: body.name,
        type: type.type,
        isDefault: body.default_ === true,
        includeTags: body.includeTags !== false,
        args,
        credentials: sealCredentials(deps.config, secrets),
        langs,
        createdById: caller.userId,
        now: nowIso(deps.clock),
      }),
    );
}

export async function editMtSettings(deps: AppDeps, caller: Caller, uid: string, body: MtSettingsEditBody): Promise<MtSettingsRow> {
  const row = await requireMtSettings(deps, caller.organizationId, uid);
  if (body.type.toLowerCase() !== row.type.toLowerCase())
    throw errors.InvalidArguments({
      reason: `The engine type of settings cannot change (${row.type}); create new settings instead.`,
      details: [{ field: 'type', message: 'cannot change' }],
    });
  const type = engineType(row.type);
  let sealed = row.credentials;
  let secrets: Record<string, string> = {};
  if (body.credentials === null) sealed = null;
  else if (body.credentials !== undefined) {
    secrets = body.credentials;
    sealed = sealCredentials(deps.config, secrets);
  }
  const args = checkedArgs(type, body.args === undefined ? argsOf(row) : (body.args ?? {}), secrets);
  const langs =
    body.langs === undefined
      ? row.langs
        ? (JSON.parse(row.langs) as { sourceLang: string; targetLangs: string[] })
        : null
      : checkedLangs(body.langs);
  const engineChanged = JSON.stringify(args) !== JSON.stringify(argsOf(row)) || sealed !== row.credentials;
  const updated = await db(deps)
    .transaction()
    .execute(async (trx) => {
      const next = await updateMtSettings(trx, row, {
        name: body.name,
        isDefault: body.default_ === undefined || body.default_ === null ? Boolean(row.isDefault) : body.default_,
        includeTags: body.includeTags === undefined || body.includeTags === null ? Boolean(row.includeTags) : body.includeTags,
        args,
        credentials: sealed,
        langs,
        now: nowIso(deps.clock),
      });
      // Another server (or other credentials) may translate differently: its cache starts afresh.
      if (engineChanged) await trx.deleteFrom('mtCache').where('mtSettingsId', '=', row.id).execute();
      return next;
    });
  if (engineChanged) forgetInMemory(row.id);
  return updated;
}

export async function deleteMtSettings(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await requireMtSettings(deps, caller.organizationId, uid);
  await db(deps)
    .transaction()
    .execute((trx) => deleteMtSettingsRow(trx, row.id));
  forgetInMemory(row.id);
}

/** Whether the stored credentials still open under this installation's key. */
export function credentialsReadable(deps: AppDeps, row: MtSettingsRow): boolean {
  return openCredentials(deps.config, row.credentials) !== null;
}
