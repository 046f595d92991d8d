import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import {
  NetRateSchemeReference,
  PriceListReference,
  pricingReferenceColumn,
  pricingReferenceLookup,
  storedFinancialSettings,
} from '../../organization-setup/setup-records/index.js';
import { ACCESS_SETTINGS_DEFAULTS, accessSettingsOf, fileNamingSettingsOf, importSettingsView, parseSettings } from '../kernel/index.js';
import { assertSegmentationRuleIds } from '../../organization-setup/segmentation-rules/index.js';
import { FileImportSettingsCreateDto, FileImportSettingsDto } from '../kernel/index.js';
import { ProjectUidParams } from './projects.schemas.js';
import { PROJECT_EDITORS, PROJECT_READERS, onProject, projectAccessOf } from '../kernel/index.js';
import { assertVendorUids, replaceProjectSetting } from './project-settings.service.js';

/**
 * The project's settings documents (docs/projects.md, "Settings"): access and security (v2),
 * financial, file naming and import settings. Reading needs what reading the project needs;
 * changing them, what editing it needs. Each PUT replaces its document (fields left out take
 * their defaults) and emits PROJECT_METADATA_UPDATED.
 */

const TAGS = ['Project'];
const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

/** Spec `VendorSecuritySettingsDto`. */
const VendorSecuritySettings = Type.Object({
  canChangeSharedJobDueDateEnabled: Type.Optional(Type.Boolean()),
  canChangeSharedJobDueDate: Type.Optional(Type.Array(UidRef, { maxItems: 1000 })),
  jobVendorsMayUploadReferences: Type.Optional(Type.Boolean()),
});

const accessFlags = Object.keys(ACCESS_SETTINGS_DEFAULTS).filter((k) => k !== 'vendors' && k !== 'allowedDomains');
const flagSchemas = (names: string[]) => Object.fromEntries(names.map((name) => [name, Type.Optional(Type.Boolean())]));

/** Spec `EditProjectSecuritySettingsDtoV2`. */
const EditAccessSettingsBody = Type.Object({
  ...flagSchemas(accessFlags),
  vendors: Type.Optional(VendorSecuritySettings),
  allowedDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 500 })),
});
/** Spec `ProjectSecuritySettingsDtoV2` (notifyJobOwnerStatusChanged is stored, but the published view does not show it). */
const AccessSettingsSchema = Type.Object(
  {
    ...flagSchemas(accessFlags.filter((k) => k !== 'notifyJobOwnerStatusChanged')),
    vendors: VendorSecuritySettings,
    allowedDomains: Type.Array(Type.String()),
  },
  { title: 'ProjectSecuritySettingsDtoV2' },
);

const IdRef = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Spec `SetFinancialSettingsDto`: the organization's net rate scheme and price list, by id (or uid). */
const SetFinancialSettingsBody = Type.Object({
  netRateScheme: Type.Optional(Type.Union([IdRef, Type.Null()])),
  priceList: Type.Optional(Type.Union([IdRef, Type.Null()])),
});
/** Spec `FinancialSettingsDto`. */
const FinancialSettingsSchema = Type.Object(
  {
    netRateScheme: Type.Union([NetRateSchemeReference, Type.Null()]),
    priceList: Type.Union([PriceListReference, Type.Null()]),
  },
  { title: 'FinancialSettingsDto' },
);

/**
 * The financial settings of a settings document with their references, looked up in the
 * project's organization (a vendor's user may reach a buyer's project). A list or scheme deleted
 * since reads as null (deleting one also clears it here: setup-records' clearing rules).
 */
async function financialSettingsOf(deps: AppDeps, organizationId: string, settings: Record<string, unknown>) {
  const stored = storedFinancialSettings(settings.financialSettings);
  const pricing = await pricingReferenceLookup(deps.database.db, organizationId, [stored]);
  return { netRateScheme: pricing.netRateScheme(stored.netRateSchemeId), priceList: pricing.priceList(stored.priceListId) };
}

/** Spec `FileNamingSettingsDto`. */
const FileNamingSettings = Type.Object(
  {
    renameCompleted: Type.Optional(Type.Boolean()),
    completedFilePattern: Type.Optional(Type.String({ maxLength: 255 })),
    targetFolderPath: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { title: 'FileNamingSettingsDto' },
);

/** The settings of the project the route declared. */
const settingsOf = (request: FastifyRequest) => parseSettings(projectAccessOf(request).project.settings);

export function projectSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v2/projects/:projectUid/accessSettings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getProjectAccessSettingsV2',
          summary: 'Get access and security settings',
          params: ProjectUidParams,
          response: { 200: AccessSettingsSchema },
        },
      },
      async (request) => accessSettingsOf(settingsOf(request)),
    );

    app.put(
      '/v2/projects/:projectUid/accessSettings',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editProjectAccessSettingsV2',
          summary: 'Edit access and security settings',
          description: 'Replaces the settings; fields left out take the defaults of EditProjectSecuritySettingsDtoV2.',
          params: ProjectUidParams,
          body: EditAccessSettingsBody,
          response: { 200: AccessSettingsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const body = request.body as Static<typeof EditAccessSettingsBody>;
        await assertVendorUids(deps, caller, body.vendors?.canChangeSharedJobDueDate ?? []);
        const document = {
          ...ACCESS_SETTINGS_DEFAULTS,
          ...body,
          vendors: { ...ACCESS_SETTINGS_DEFAULTS.vendors, ...(body.vendors ?? {}) },
        };
        return accessSettingsOf(await replaceProjectSetting(deps, caller, projectAccessOf(request), 'accessSettings', document));
      },
    );

    app.get(
      '/v1/projects/:projectUid/financialSettings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getFinancialSettings',
          summary: 'Get financial settings',
          params: ProjectUidParams,
          response: { 200: FinancialSettingsSchema },
        },
      },
      async (request) => financialSettingsOf(deps, projectAccessOf(request).project.organizationId, settingsOf(request)),
    );

    app.put(
      '/v1/projects/:projectUid/financialSettings',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'setFinancialSettings',
          summary: 'Edit financial settings',
          description:
            'Replaces the settings: `priceList` and `netRateScheme` name the project organization\'s price list and net rate scheme by id (or uid); null or left out clears one (description, "Behaviour of other operations" 1). One the organization does not have is 400 ReferenceNotFound.',
          params: ProjectUidParams,
          body: SetFinancialSettingsBody,
          response: { 200: FinancialSettingsSchema },
        },
      },
      async (request) => {
        const { netRateScheme, priceList } = request.body;
        const access = projectAccessOf(request);
        const organizationId = access.project.organizationId;
        const db = deps.database.db;
        const stored = {
          priceListId: (await pricingReferenceColumn(db, organizationId, 'priceList', 'priceList', priceList)) ?? null,
          netRateSchemeId: (await pricingReferenceColumn(db, organizationId, 'netRateScheme', 'netRateScheme', netRateScheme)) ?? null,
        };
        const document = stored.priceListId === null && stored.netRateSchemeId === null ? null : stored;
        const settings = await replaceProjectSetting(deps, callerOf(request), access, 'financialSettings', document);
        return financialSettingsOf(deps, organizationId, settings);
      },
    );

    app.get(
      '/v1/projects/:projectUid/fileNamingSettings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getFileNamingSettings',
          summary: 'Get file naming settings for project',
          params: ProjectUidParams,
          response: { 200: FileNamingSettings },
        },
      },
      async (request) => fileNamingSettingsOf(settingsOf(request)),
    );

    app.put(
      '/v1/projects/:projectUid/fileNamingSettings',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit') },
        schema: {
          tags: TAGS,
          operationId: 'updateFileNamingSettings',
          summary: 'Update file naming settings for project',
          params: ProjectUidParams,
          body: FileNamingSettings,
          response: { 200: FileNamingSettings },
        },
      },
      async (request) =>
        fileNamingSettingsOf(
          await replaceProjectSetting(deps, callerOf(request), projectAccessOf(request), 'fileNamingSettings', request.body),
        ),
    );

    app.get(
      '/v1/projects/:projectUid/importSettings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getImportSettings_2',
          summary: "Get projects's default import settings",
          params: ProjectUidParams,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => importSettingsView(deps.database.db, callerOf(request).organizationId, settingsOf(request).importSettings),
    );

    app.put(
      '/v1/projects/:projectUid/importSettings',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editImportSettings_1',
          summary: 'Edit project import settings',
          description:
            "Replaces the project's default import settings (FileImportSettingsCreateDto). `segmentationRuleId` and `targetSegmentationRuleId` name segmentation rules of the organization (400 ReferenceNotFound otherwise); " +
            'jobs created afterwards are segmented with the first (docs/segmentation-rules.md, "Use on import"), and the answer shows them as `segRule` and `targetSegRule`.',
          params: ProjectUidParams,
          body: FileImportSettingsCreateDto,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => {
        const body = request.body as Record<string, unknown>;
        const caller = callerOf(request);
        await assertSegmentationRuleIds(deps.database.db, caller.organizationId, body);
        const settings = await replaceProjectSetting(deps, caller, projectAccessOf(request), 'importSettings', body);
        return importSettingsView(deps.database.db, caller.organizationId, settings.importSettings);
      },
    );
  };
}
