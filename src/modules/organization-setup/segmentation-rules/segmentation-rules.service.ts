import { bool } from '../../../db/database.js';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { parseSrx, SrxError } from '../../../domain/segmentation/srx.js';
import type { RuleSet } from '../../../domain/segmentation/rules.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { sanitizeFilename } from '../../../http/uploads.js';
import type { Db } from '../../../queue/types.js';
import {
  clearPrimary,
  deleteSegmentationRuleRow,
  findSegmentationRule,
  insertSegmentationRule,
  primarySegmentationRuleSrx,
  segmentationRulesByIds,
  segmentationRuleSrx,
  updateSegmentationRuleRow,
} from './segmentation-rules.repository.js';
import type { SegmentationRuleRow } from './segmentation-rules.repository.js';
import type { EditSegmentationRuleBody, SegRuleHeader } from './segmentation-rules.schemas.js';

/** The organization's rule (by uid or numeric id), or 404. */
export async function getSegmentationRule(deps: AppDeps, caller: Caller, key: string): Promise<SegmentationRuleRow> {
  const row = await findSegmentationRule(deps.database.db, caller.organizationId, key);
  if (!row) throw errors.ResourceNotFound({ what: 'Segmentation rule' });
  return row;
}

/** The name trimmed; blank is a 400. */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  return trimmed;
}

const truthy = (value: boolean | string | undefined) => value === true || (typeof value === 'string' && value.toLowerCase() === 'true');

/**
 * Reads an uploaded SRX file into the rule set the segmenter uses; a file that is not usable is a
 * 400 naming the problem: SrxFileInvalid for the file, SegmentationRuleInvalid naming the rule
 * (language rule, index, expression).
 */
export function readSrxOrRefuse(text: string): RuleSet {
  try {
    return parseSrx(text);
  } catch (error) {
    if (!(error instanceof SrxError)) throw error;
    const problem = error.problem;
    const reason = (problem.kind === 'rule' ? problem.reason : error.message).replace(/\.$/, '');
    if (problem.kind === 'rule') {
      const { languageRuleName, ruleIndex, side, expression } = problem;
      throw errors.SegmentationRuleInvalid({ languageRuleName, ruleIndex, side, expression, reason });
    }
    throw errors.SrxFileInvalid({ reason });
  }
}

/** The uploaded bytes as text: UTF-8 (a byte order mark dropped); UTF-16 when it has its byte order mark. */
export function srxText(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Creates a rule from its metadata (the `segRule` header) and its SRX file, checked whole first
 * (nothing is stored when it is refused). `primary` makes it the primary rule of its locale: the
 * locale's other rules stop being primary, in the same transaction.
 */
export async function createSegmentationRule(
  deps: AppDeps,
  caller: Caller,
  header: SegRuleHeader,
  upload: { text: string; filename: string | null },
): Promise<SegmentationRuleRow> {
  const name = cleanName(header.name);
  const locale = assertLanguage('segRule.locale', header.locale);
  const filename = sanitizeFilename(header.filename ?? upload.filename ?? `${name}.srx`, 'segRule.filename');
  readSrxOrRefuse(upload.text);
  const primary = truthy(header.primary);
  return deps.database.db.transaction().execute(async (trx) => {
    if (primary) await clearPrimary(trx, caller.organizationId, locale);
    return insertSegmentationRule(trx, {
      organizationId: caller.organizationId,
      name,
      locale,
      isPrimary: primary,
      filename,
      srx: upload.text,
      createdAt: deps.clock().toISOString(),
      createdById: caller.userId,
    });
  });
}

/** Edits name and primary (EditSegmentationRuleDto: `primary` left out is false); the file stays. */
export async function editSegmentationRule(
  deps: AppDeps,
  caller: Caller,
  key: string,
  body: EditSegmentationRuleBody,
): Promise<SegmentationRuleRow> {
  const rule = await getSegmentationRule(deps, caller, key);
  const name = cleanName(body.name);
  const primary = body.primary === true;
  return deps.database.db.transaction().execute(async (trx) => {
    if (primary) await clearPrimary(trx, caller.organizationId, rule.locale, rule.id);
    return updateSegmentationRuleRow(trx, rule.id, { name, isPrimary: primary });
  });
}

/**
 * Deletes the rule. Import settings that name it keep the id: a job imported later with them is
 * segmented as if they named none (docs/segmentation-rules.md, "Use on import").
 */
export async function deleteSegmentationRule(deps: AppDeps, caller: Caller, key: string): Promise<void> {
  const rule = await getSegmentationRule(deps, caller, key);
  await deleteSegmentationRuleRow(deps.database.db, rule.id);
}

// ---------------------------------------------------------------------------------------------
// What the translation workflow uses (through index.ts).

const RULE_ID_FIELDS = ['segmentationRuleId', 'targetSegmentationRuleId'] as const;

/**
 * Checks the segmentation rule ids an import settings document names (`segmentationRuleId`,
 * `targetSegmentationRuleId`): each a rule of the organization, else 400 ReferenceNotFound naming
 * the field. Null and absent name none.
 */
export async function assertSegmentationRuleIds(db: Db, organizationId: string, document: Record<string, unknown>): Promise<void> {
  const named = RULE_ID_FIELDS.map((field) => [field, document[field]] as const).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  if (named.length === 0) return;
  const found = await segmentationRulesByIds(
    db,
    organizationId,
    named.map(([, value]) => String(value)),
  );
  for (const [field, value] of named) {
    if (!found.has(String(value))) throw errors.ReferenceNotFound({ what: 'segmentation rule', key: String(value), keyName: 'id', field });
  }
}

/** Spec definition `SegRuleReference`, as FileImportSettingsDto shows the rules it names. */
export interface SegRuleReference {
  id: string;
  uid: string;
  language: string;
  name: string;
  filename: string;
  primary: boolean;
}

/**
 * The `segRule` and `targetSegRule` of an import settings document: the rules its
 * `segmentationRuleId` and `targetSegmentationRuleId` name, null for none (or a deleted rule).
 */
export async function segRuleReferencesOf(
  db: Db,
  organizationId: string,
  document: Record<string, unknown>,
): Promise<{ segRule: SegRuleReference | null; targetSegRule: SegRuleReference | null }> {
  const ids = RULE_ID_FIELDS.map((field) => document[field]).map((value) => (value === undefined || value === null ? null : String(value)));
  if (ids.every((id) => id === null)) return { segRule: null, targetSegRule: null };
  const found = await segmentationRulesByIds(
    db,
    organizationId,
    ids.filter((id): id is string => id !== null),
  );
  const reference = (id: string | null): SegRuleReference | null => {
    const row = id === null ? undefined : found.get(id);
    return row
      ? { id: String(row.id), uid: row.uid, language: row.locale, name: row.name, filename: row.filename, primary: bool(row.isPrimary) }
      : null;
  };
  return { segRule: reference(ids[0]!), targetSegRule: reference(ids[1]!) };
}

/**
 * The SRX file a job's import segments with, or null for the built-in default rules: the rule
 * `ruleId` (the import settings' segmentationRuleId) when it still exists, else the organization's
 * primary rule for the source language (`de_at`, then `de`), else none.
 */
export async function segmentationSrxForImport(
  db: Db,
  organizationId: string,
  ruleId: unknown,
  sourceLang: string,
): Promise<string | null> {
  if (ruleId !== undefined && ruleId !== null) {
    const srx = await segmentationRuleSrx(db, organizationId, String(ruleId));
    if (srx !== undefined) return srx;
  }
  const base = sourceLang.split('_')[0]!;
  const locales = base === sourceLang ? [sourceLang] : [sourceLang, base];
  return (await primarySegmentationRuleSrx(db, organizationId, locales)) ?? null;
}
