import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { bool } from '../../../db/database.js';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { DEFAULT_RULE_SET } from '../../../domain/segmentation/rules.js';
import { MAX_SRX_CHARS, ruleSetForLanguage, writeSrx } from '../../../domain/segmentation/srx.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { toPage } from '../../../http/paging.js';
import { filenameFromContentDisposition, octetStreamBody, parseJsonDocument } from '../../../http/uploads.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { listSegmentationRuleOwners, listSegmentationRules } from './segmentation-rules.repository.js';
import type { SegmentationRuleMeta } from './segmentation-rules.repository.js';
import {
  EditSegmentationRuleBody,
  LocaleParams,
  OwnerListQuery,
  OwnerPage,
  SegmentationRuleDto,
  SegmentationRuleListQuery,
  SegmentationRulePage,
  SegRuleHeader,
  SegRuleIdParams,
  SegRuleUidParams,
} from './segmentation-rules.schemas.js';
import {
  createSegmentationRule,
  deleteSegmentationRule,
  editSegmentationRule,
  getSegmentationRule,
  srxText,
} from './segmentation-rules.service.js';

/** Reading and uploading: the internal roles (description, "Access rules": segmentation rules). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Editing and deleting also need the setupServer right. */
const EDITORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

const tags = ['Segmentation Rules'];

/** The largest SRX file accepted, in bytes (its characters are bounded by MAX_SRX_CHARS too). */
export const MAX_SRX_BYTES = MAX_SRX_CHARS;

const SRX_CONTENT_TYPE = 'application/xml; charset=utf-8';
const FILE_RESPONSE = {
  200: { description: 'The SRX 2.0 file, named by Content-Disposition', type: 'string', format: 'binary' },
} as const;

const referenceOf = (row: SegmentationRuleMeta) => ({
  id: String(row.id),
  uid: row.uid,
  name: row.name,
  locale: row.locale,
  primary: bool(row.isPrimary),
  filename: row.filename,
  dateCreated: row.createdAt,
});

async function toDto(db: Db, organizationId: string, row: SegmentationRuleMeta) {
  const users = await userReferenceLookup(db, organizationId, [row.createdById]);
  return { ...referenceOf(row), createdBy: users(row.createdById) };
}

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** The uploaded SRX file, read whole (at most MAX_SRX_BYTES, else 413), with the name it came with. */
async function receivedFile(request: FastifyRequest): Promise<{ bytes: Buffer; filename: string | null; fields: Record<string, unknown> }> {
  let body: Readable;
  let filename: string | null;
  let fields: Record<string, unknown> = {};
  if (mediaType(request) === 'multipart/form-data') {
    const part = await request.file();
    if (!part)
      throw errors.InvalidArguments({
        reason: 'Send the SRX file as a `file` part.',
        details: [{ field: 'file', message: 'is required' }],
      });
    body = part.file;
    filename = part.filename || null;
    fields = part.fields as Record<string, unknown>;
  } else {
    body = octetStreamBody(request);
    filename = filenameFromContentDisposition(request.headers['content-disposition']);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SRX_BYTES) {
      body.destroy();
      throw errors.FileTooLarge({ limitBytes: MAX_SRX_BYTES });
    }
    chunks.push(chunk);
  }
  if (size === 0) throw errors.InvalidArguments({ reason: 'The SRX file is empty.', details: [{ field: 'file', message: 'is empty' }] });
  return { bytes: Buffer.concat(chunks), filename, fields };
}

/** The `segRule` header (or, in a multipart request, a `segRule` field before the file). */
function segRuleOf(request: FastifyRequest, fields: Record<string, unknown>): SegRuleHeader {
  const header = request.headers['segrule'];
  let text = Array.isArray(header) ? header[0] : header;
  if (text === undefined) {
    const field = fields['segRule'] as { value?: unknown } | undefined;
    if (field && typeof field.value === 'string') text = field.value;
  }
  return parseJsonDocument(text, SegRuleHeader, 'segRule', { lenient: true }) as SegRuleHeader;
}

/** Segmentation Rules operations (routes relative to `/api2`; docs/segmentation-rules.md). */
export function segmentationRulesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/segmentationRules',
      {
        config: { access: READERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags,
          operationId: 'getListOfSegmentationRules',
          summary: 'List segmentation rules',
          description:
            "The organization's rules, sorted by locale, then name ignoring case. Filters: `locales` (the published name) or `languages` (repeatable), or `language`: rules for any of the given languages (codes normalized: `EN-us` is `en_us`; an unsupported code is 400). " +
            '`language` and `languages` are mutually exclusive: 400 when both are given (description, "Behaviour of other operations" 8).',
          querystring: SegmentationRuleListQuery,
          response: { 200: SegmentationRulePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { language, languages, locales, pageNumber, pageSize } = request.query;
        if (language !== undefined && (languages !== undefined || locales !== undefined)) {
          throw errors.InvalidArguments({
            reason: 'language and languages are mutually exclusive: give one of them.',
            details: [{ field: 'language', message: 'not with languages' }],
          });
        }
        let filter: string[] | null = null;
        if (language !== undefined) filter = [assertLanguage('language', language)];
        else if (languages !== undefined || locales !== undefined)
          filter = [...assertLanguages('languages', languages ?? []), ...assertLanguages('locales', locales ?? [])];
        const page = { pageNumber, pageSize };
        const { rows, total } = await listSegmentationRules(db, caller.organizationId, filter, page);
        return toPage(rows.map(referenceOf), total, page);
      },
    );

    app.post(
      '/v1/segmentationRules',
      {
        config: {
          access: READERS,
          errors: [
            'UnsupportedMediaType',
            'FileTooLarge',
            'SrxFileInvalid',
            'SegmentationRuleInvalid',
            'UnsupportedLanguage',
            'InvalidJson',
          ],
        },
        schema: {
          tags,
          operationId: 'createSegmentationRule',
          summary: 'Create segmentation rule',
          description:
            'Uploads an SRX 2.0 file as application/octet-stream (or as the multipart part `file`), at most ' +
            `${MAX_SRX_BYTES} bytes, UTF-8 (or UTF-16 with its byte order mark), with its metadata in the \`segRule\` header: JSON (or the JSON5 / Python literal form of the published example) ` +
            "`{name, locale, primary, filename}`: `name` (trimmed, not blank), `locale` (a supported language code), `primary` (true makes it the locale's primary rule, which jobs of that source language use when their import settings name no rule; the locale's other rules stop being primary), " +
            '`filename` (else the Content-Disposition or part file name, else "<name>.srx"). ' +
            'The file is checked whole: not SRX or malformed XML is 400 SrxFileInvalid; a rule whose Java regular expression the engine cannot translate or compile is 400 SegmentationRuleInvalid naming the language rule, the rule (1-based) and the expression. ' +
            'Creating needs an internal role; editing and deleting also the setupServer right.',
          consumes: ['application/octet-stream', 'multipart/form-data'],
          response: { 201: SegmentationRuleDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // The header is checked before the file is read, when there is one.
        if (request.headers['segrule'] !== undefined) segRuleOf(request, {});
        const file = await receivedFile(request);
        const header = segRuleOf(request, file.fields);
        const row = await createSegmentationRule(deps, caller, header, { text: srxText(file.bytes), filename: file.filename });
        return reply.code(201).send(await toDto(db, caller.organizationId, row));
      },
    );

    app.get(
      '/v1/segmentationRules/owners',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getSegmentationRulesOwners',
          summary: 'Get owners of segmentation rules',
          description:
            'The 2025 operation (not in the published spec): the users who created rules of the organization, as a page of UserReference sorted by user id.',
          querystring: OwnerListQuery,
          response: { 200: OwnerPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { ids, total } = await listSegmentationRuleOwners(db, caller.organizationId, page);
        const users = await userReferenceLookup(db, caller.organizationId, ids);
        return toPage(
          ids.map((id) => users(id)).filter((user) => user !== null),
          total,
          page,
        );
      },
    );

    app.get(
      '/v1/segmentationRules/:locale/exportDefault',
      {
        config: { access: READERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags,
          operationId: 'exportDefaultSegmentationRules',
          summary: 'Export default segmentation rules',
          description:
            "The 2025 operation (not in the published spec): OpenTMS's built-in rules that apply to `locale` (a supported code, else 400) as an SRX 2.0 file, " +
            'named default_segmentation_rules_<locale>.srx: the language rules of the locale (if it has some) and the default ones, with their maps. ' +
            'Uploaded back (createSegmentationRule), the file segments that language exactly as the built-in rules do: a starting point for custom rules.',
          params: LocaleParams,
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const locale = assertLanguage('locale', request.params.locale);
        const text = writeSrx(ruleSetForLanguage(DEFAULT_RULE_SET, locale));
        reply.header('content-disposition', attachmentDisposition(`default_segmentation_rules_${locale}.srx`));
        return reply.type(SRX_CONTENT_TYPE).send(text);
      },
    );

    app.get(
      '/v1/segmentationRules/:segRuleId',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getSegmentationRule',
          summary: 'Get segmentation rule',
          description: 'The rule is named by its numeric id (the published form) or its uid.',
          params: SegRuleIdParams,
          response: { 200: SegmentationRuleDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toDto(db, caller.organizationId, await getSegmentationRule(deps, caller, request.params.segRuleId));
      },
    );

    app.put(
      '/v1/segmentationRules/:segRuleId',
      {
        config: { access: EDITORS },
        schema: {
          tags,
          operationId: 'updatesSegmentationRule',
          summary: 'Edit segmentation rule',
          description:
            'Replaces the name (trimmed, not blank) and `primary` (left out: false). Making a rule primary makes the other rules of its locale not primary. ' +
            'The SRX file and the locale do not change (upload a new rule for a new file). Needs the setupServer right.',
          params: SegRuleIdParams,
          body: EditSegmentationRuleBody,
          response: { 200: SegmentationRuleDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toDto(db, caller.organizationId, await editSegmentationRule(deps, caller, request.params.segRuleId, request.body));
      },
    );

    app.delete(
      '/v1/segmentationRules/:segRuleId',
      {
        config: { access: EDITORS },
        schema: {
          tags,
          operationId: 'deletesSegmentationRule',
          summary: 'Delete segmentation rule',
          description:
            'Deletes the rule. Import settings that name it keep its id; jobs imported with them afterwards are segmented as if they named no rule ' +
            "(the locale's primary rule, else the built-in rules). Jobs already imported keep their segments. Needs the setupServer right.",
          params: SegRuleIdParams,
        },
      },
      async (request, reply) => {
        await deleteSegmentationRule(deps, callerOf(request), request.params.segRuleId);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/segmentationRules/:segRuleUid/export',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'exportSegmentationRule',
          summary: 'Export segmentation rule',
          description:
            "The 2025 operation (not in the published spec): the rule's SRX file exactly as uploaded (as UTF-8), named by its `filename`.",
          params: SegRuleUidParams,
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const rule = await getSegmentationRule(deps, callerOf(request), request.params.segRuleUid);
        reply.header('content-disposition', attachmentDisposition(rule.filename));
        return reply.type(SRX_CONTENT_TYPE).send(rule.srx);
      },
    );
  };
}
