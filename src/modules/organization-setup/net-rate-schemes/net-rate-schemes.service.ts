import type { AppDeps } from '../../../deps.js';
import { DEFAULT_NET_RATES, mergeNetRates, parseStoredNetRates, storedNetRates } from '../../../domain/pricing/net-rates.js';
import type { NetRates } from '../../../domain/pricing/net-rates.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { Db } from '../../../queue/types.js';
import { forgetSettingReferences } from '../../identity/users/index.js';
import { clearNetRateSchemeReferences } from '../setup-records/index.js';
import {
  deleteNetRateSchemeRow,
  deleteStepSchemes,
  findNetRateScheme,
  findStepScheme,
  insertNetRateScheme,
  insertStepSchemes,
  netRateSchemeNameTaken,
  stepSchemesOf,
  updateNetRateSchemeRow,
  updateStepSchemeRates,
  workflowStepsByIds,
} from './net-rate-schemes.repository.js';
import type { NetRateSchemeRow, StepSchemeRow } from './net-rate-schemes.repository.js';
import { NAME_MAX_LENGTH } from './net-rate-schemes.schemas.js';
import type {
  CloneNetRateSchemeBody,
  CreateNetRateSchemeBody,
  EditNetRateSchemeBody,
  EditStepSchemeBody,
  StepSchemeInput,
} from './net-rate-schemes.schemas.js';

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a net rate scheme', name });

/** The name trimmed; blank is a 400. */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  return trimmed;
}

async function assertNameFree(db: Db, caller: Caller, name: string, exceptId?: string): Promise<void> {
  if (await netRateSchemeNameTaken(db, caller.organizationId, name, exceptId)) throw nameAlreadyExists(name);
}

/**
 * The entries' workflow steps (by numeric id) checked: each a workflow step of the organization
 * (400 ReferenceNotFound), each at most once (400 InvalidArguments). Answers the step ids in order.
 */
async function resolveSteps(db: Db, caller: Caller, entries: readonly StepSchemeInput[]): Promise<string[]> {
  const ids = entries.map((e) => e.workflowStep.id.trim());
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined)
    throw errors.InvalidArguments({
      reason: `The workflow step ${repeated} is listed twice in workflowStepNetSchemes.`,
      details: [{ field: 'workflowStepNetSchemes', message: `workflow step ${repeated} listed twice` }],
    });
  if (ids.length === 0) return [];
  const found = await workflowStepsByIds(db, caller.organizationId, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined)
    throw errors.ReferenceNotFound({ what: 'workflow step', key: missing, keyName: 'id', field: 'workflowStepNetSchemes' });
  return ids;
}

/** The organization's scheme (by uid or numeric id), or 404. */
export async function getNetRateScheme(deps: AppDeps, caller: Caller, key: string): Promise<NetRateSchemeRow> {
  const row = await findNetRateScheme(deps.database.db, caller.organizationId, key);
  if (!row) throw errors.ResourceNotFound({ what: 'Net rate scheme' });
  return row;
}

/**
 * Creates a scheme: bands left out take DEFAULT_NET_RATES; each workflow step scheme starts from
 * the scheme's rates, with the bands it gives replaced. The name is unique in the organization,
 * ignoring case (409).
 */
export async function createNetRateScheme(deps: AppDeps, caller: Caller, body: CreateNetRateSchemeBody): Promise<NetRateSchemeRow> {
  const name = cleanName(body.name);
  const rates = mergeNetRates(DEFAULT_NET_RATES, body.rates);
  const entries = body.workflowStepNetSchemes ?? [];
  const stepRates = entries.map((e, i) => mergeNetRates(rates, e.rates, `workflowStepNetSchemes.${i}.rates`));
  return deps.database.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, caller, name);
    const stepIds = await resolveSteps(trx, caller, entries);
    const scheme = await insertNetRateScheme(trx, {
      organizationId: caller.organizationId,
      name,
      rates: storedNetRates(rates),
      createdAt: deps.clock().toISOString(),
      createdById: caller.userId,
    });
    await insertStepSchemes(
      trx,
      stepIds.map((workflowStepId, i) => ({ netRateSchemeId: scheme.id, workflowStepId, rates: storedNetRates(stepRates[i]!) })),
    );
    return scheme;
  });
}

/**
 * Edits a scheme: the name (required, unique), the bands `rates` gives (the others keep their
 * rate), and with `workflowStepNetSchemes` (v2 only) the list of workflow step schemes: a step
 * already listed keeps its id and rates (bands given replace its own), a new step starts from the
 * scheme's (new) rates, steps left out are removed.
 */
export async function editNetRateScheme(
  deps: AppDeps,
  caller: Caller,
  key: string,
  body: EditNetRateSchemeBody,
): Promise<NetRateSchemeRow> {
  const name = cleanName(body.name);
  return deps.database.db.transaction().execute(async (trx) => {
    const scheme = await findNetRateScheme(trx, caller.organizationId, key);
    if (!scheme) throw errors.ResourceNotFound({ what: 'Net rate scheme' });
    await assertNameFree(trx, caller, name, scheme.id);
    const rates = mergeNetRates(parseStoredNetRates(scheme.rates), body.rates);
    const updated = await updateNetRateSchemeRow(trx, scheme.id, { name, rates: storedNetRates(rates) });
    if (body.workflowStepNetSchemes) await replaceStepSchemes(trx, caller, updated, rates, body.workflowStepNetSchemes);
    return updated;
  });
}

async function replaceStepSchemes(trx: Db, caller: Caller, scheme: NetRateSchemeRow, rates: NetRates, entries: readonly StepSchemeInput[]) {
  const existing = new Map((await stepSchemesOf(trx, [scheme.id])).map((s) => [s.workflowStep.id, s]));
  const stepIds = await resolveSteps(trx, caller, entries);
  const inserts = [];
  for (const [i, workflowStepId] of stepIds.entries()) {
    const field = `workflowStepNetSchemes.${i}.rates`;
    const current = existing.get(workflowStepId);
    if (current) {
      existing.delete(workflowStepId);
      const merged = mergeNetRates(parseStoredNetRates(current.rates), entries[i]!.rates, field);
      await updateStepSchemeRates(trx, current.id, storedNetRates(merged));
    } else {
      inserts.push({ netRateSchemeId: scheme.id, workflowStepId, rates: storedNetRates(mergeNetRates(rates, entries[i]!.rates, field)) });
    }
  }
  await deleteStepSchemes(
    trx,
    scheme.id,
    [...existing.values()].map((s) => s.id),
  );
  await insertStepSchemes(trx, inserts);
}

/**
 * Deletes the scheme with its workflow step schemes, and in the same transaction clears every
 * reference to it: clients, vendors, projects' and templates' financial settings, linguists'
 * role settings.
 */
export async function deleteNetRateScheme(deps: AppDeps, caller: Caller, key: string): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    const scheme = await findNetRateScheme(trx, caller.organizationId, key);
    if (!scheme) throw errors.ResourceNotFound({ what: 'Net rate scheme' });
    const ref = { id: String(scheme.id), uid: scheme.uid };
    await clearNetRateSchemeReferences(trx, caller.organizationId, ref);
    // Role settings hold references by uid; the id too, should a reference ever be stored by id.
    await forgetSettingReferences(trx, caller.organizationId, 'netRateScheme', [ref.uid, ref.id]);
    await deleteNetRateSchemeRow(trx, scheme.id);
  });
}

/** `<name> (copy)`, or `<name> (copy N)`, the name cut so that the whole fits NAME_MAX_LENGTH. */
function copyName(name: string, n: number): string {
  const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
  return `${name.slice(0, NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
}

/** How many "(copy N)" names clone tries before giving up with 409. */
const COPY_NAME_TRIES = 100;

/**
 * Copies the scheme with its rates and its workflow step schemes. The copy is named `name` when
 * the body gives one (409 when taken), else "<name> (copy)", "<name> (copy 2)", … whichever is
 * free first.
 */
export async function cloneNetRateScheme(
  deps: AppDeps,
  caller: Caller,
  key: string,
  body: CloneNetRateSchemeBody,
): Promise<NetRateSchemeRow> {
  const given = body?.name === undefined ? undefined : cleanName(body.name);
  return deps.database.db.transaction().execute(async (trx) => {
    const source = await findNetRateScheme(trx, caller.organizationId, key);
    if (!source) throw errors.ResourceNotFound({ what: 'Net rate scheme' });
    let name = given;
    if (name !== undefined) await assertNameFree(trx, caller, name);
    else {
      for (let n = 1; n <= COPY_NAME_TRIES && name === undefined; n++) {
        const candidate = copyName(source.name, n);
        if (!(await netRateSchemeNameTaken(trx, caller.organizationId, candidate))) name = candidate;
      }
      if (name === undefined) throw nameAlreadyExists(copyName(source.name, COPY_NAME_TRIES));
    }
    const copy = await insertNetRateScheme(trx, {
      organizationId: caller.organizationId,
      name,
      rates: source.rates,
      createdAt: deps.clock().toISOString(),
      createdById: caller.userId,
    });
    const steps = await stepSchemesOf(trx, [source.id]);
    await insertStepSchemes(
      trx,
      steps.map((s) => ({ netRateSchemeId: copy.id, workflowStepId: s.workflowStep.id, rates: s.rates })),
    );
    return copy;
  });
}

/** The scheme's workflow step scheme `id`, or 404. */
export async function getStepScheme(deps: AppDeps, caller: Caller, key: string, id: string): Promise<StepSchemeRow> {
  const scheme = await getNetRateScheme(deps, caller, key);
  const step = await findStepScheme(deps.database.db, scheme.id, id);
  if (!step) throw errors.ResourceNotFound({ what: 'Workflow step net rate scheme' });
  return step;
}

/** Edits a workflow step scheme's rates: the bands given replace its own, the others keep theirs. */
export async function editStepScheme(
  deps: AppDeps,
  caller: Caller,
  key: string,
  id: string,
  body: EditStepSchemeBody,
): Promise<StepSchemeRow> {
  return deps.database.db.transaction().execute(async (trx) => {
    const scheme = await findNetRateScheme(trx, caller.organizationId, key);
    if (!scheme) throw errors.ResourceNotFound({ what: 'Net rate scheme' });
    const step = await findStepScheme(trx, scheme.id, id);
    if (!step) throw errors.ResourceNotFound({ what: 'Workflow step net rate scheme' });
    const rates = storedNetRates(mergeNetRates(parseStoredNetRates(step.rates), body.rates));
    await updateStepSchemeRates(trx, step.id, rates);
    return { ...step, rates };
  });
}
