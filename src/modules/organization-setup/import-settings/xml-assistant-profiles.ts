import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import type { UserReference } from '../../identity/users/index.js';
import { parseImportSettingsDocument, xmlRulesOf } from './import-settings-document.js';
import { xmlRuleImportSettings } from './import-settings.repository.js';
import type { ImportSettingsRow } from './import-settings.repository.js';
import { READERS } from './import-settings.routes.js';
import { XmlAssistantProfilePage, XmlAssistantProfileQuery } from './import-settings.schemas.js';
import type { XmlAssistantProfile } from './import-settings.schemas.js';

/**
 * XML assistant profiles: saved XML rule sets. OpenTMS has no operation that creates a profile
 * on its own (only the list is published), so the organization's named import settings whose
 * document has an `xml` section with rules are its profiles: same uid, name, creator and dates;
 * the description says which rules they hold. docs/import-settings-and-file-types.md, "XML assistant".
 */

/** "XML rules (PLAIN): include para,heading; inline b,i" */
export function profileDescription(xml: Record<string, unknown>): string {
  const format = xml.rulesFormat === 'XPATH' ? 'XPATH' : 'PLAIN';
  const parts: string[] = [];
  const add = (label: string, field: string) => {
    const value = xml[field];
    if (typeof value === 'string' && value.trim() !== '') parts.push(`${label} ${value.trim()}`);
  };
  if (format === 'PLAIN') {
    add('include', 'includeElementsPlain');
    add('exclude', 'excludeElementsPlain');
    add('attributes', 'includeAttributesPlain');
    add('inline', 'inlineElementsPlain');
  } else {
    add('include', 'includeXPath');
    add('inline', 'inlineElementsXpath');
    add('lock', 'lockXPath');
  }
  const text = `XML rules (${format})${parts.length ? `: ${parts.join('; ')}` : ''}`;
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

interface Listed extends XmlAssistantProfile {
  createdByName: string;
  updatedByName: string;
}

function toProfile(row: ImportSettingsRow, users: (id: string | null) => UserReference | null): Listed {
  const createdBy = users(row.createdById);
  const updatedBy = users(row.updatedById);
  return {
    uid: row.uid,
    name: row.name,
    description: profileDescription(xmlRulesOf(parseImportSettingsDocument(row.settings)) ?? {}),
    createdAt: row.createdAt,
    createdBy,
    updatedAt: row.updatedAt,
    updatedBy,
    createdByName: createdBy?.userName ?? '',
    updatedByName: updatedBy?.userName ?? '',
  };
}

const contains = (text: string, part: string | undefined) => part === undefined || text.toLowerCase().includes(part.toLowerCase());
const byUser = (user: UserReference | null, key: string | undefined) =>
  key === undefined || (user !== null && (user.uid === key || user.userName === key));

/** The profiles the query keeps, sorted and paged (the organization's profiles are read once). */
export async function listXmlAssistantProfiles(db: Db, organizationId: string, query: XmlAssistantProfileQuery) {
  const rows = await xmlRuleImportSettings(db, organizationId);
  const users = await userReferenceLookup(db, organizationId, [...rows.map((r) => r.createdById), ...rows.map((r) => r.updatedById)]);
  const kept = rows
    .map((row) => toProfile(row, users))
    .filter(
      (p) =>
        contains(p.name, query.name) &&
        contains(p.description, query.description) &&
        (query.search === undefined || contains(p.name, query.search) || contains(p.description, query.search)) &&
        byUser(p.createdBy, query.createdBy) &&
        byUser(p.updatedBy, query.updatedBy) &&
        (query.createdAt === undefined || p.createdAt.startsWith(query.createdAt)) &&
        (query.updatedAt === undefined || p.updatedAt.startsWith(query.updatedAt)),
    );
  const sort = query.sort ?? 'name';
  const key = (p: Listed): string =>
    sort === 'createdBy'
      ? p.createdByName.toLowerCase()
      : sort === 'updatedBy'
        ? p.updatedByName.toLowerCase()
        : sort === 'name'
          ? p.name.toLowerCase()
          : p[sort];
  const direction = query.order === 'desc' ? -1 : 1;
  kept.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0) * direction;
  });
  const page = { pageNumber: query.pageNumber, pageSize: query.pageSize };
  const start = page.pageNumber * page.pageSize;
  const content = kept.slice(start, start + page.pageSize).map(({ createdByName: _c, updatedByName: _u, ...profile }) => profile);
  return toPage(content, kept.length, page);
}

/** XML Assistant operations (routes relative to `/api2`). */
export function xmlAssistantRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/xmlAssistantProfiles',
      {
        config: { access: READERS },
        schema: {
          tags: ['XML Assistant'],
          operationId: 'listXmlAssistantProfiles',
          summary: 'Get XML assistant profiles for organization',
          description:
            "The organization's saved XML rule sets: its named import settings whose `xml` section holds rules (same uid and name; the description summarizes the rules). " +
            '`name`, `description`, `search` (name or description) keep those containing the text, ignoring case; `createdBy`, `updatedBy` take a user uid or user name; ' +
            '`createdAt`, `updatedAt` a date (`2026-11-30`) or the start of a date-time. Sorted by `sort` (default name) in `order` (default asc).',
          querystring: XmlAssistantProfileQuery,
          response: { 200: XmlAssistantProfilePage },
        },
      },
      async (request) => listXmlAssistantProfiles(db, callerOf(request).organizationId, request.query),
    );
  };
}
