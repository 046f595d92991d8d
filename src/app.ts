import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from './deps.js';
import { VERSION } from './version.js';
import { createLogger } from './logging.js';
import { installAccessControl } from './http/access.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './http/errors.js';
import { installNotFoundHandler } from './http/method-not-allowed.js';
import { installOpenApi } from './http/openapi.js';
import { installNumericPathIds } from './http/record-ids.js';
import { installRateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { installRouteRegistry } from './http/route-registry.js';
import { installValidation } from './http/validation.js';
import { apiTokensRoutes } from './modules/identity/credentials/index.js';
import { authRoutes } from './modules/identity/authentication/index.js';
import { createAuthenticator, startCredentialCache } from './modules/identity/authentication/index.js';
import { healthRoutes } from './http/health.routes.js';
import { serviceAccountsRoutes } from './modules/identity/service-accounts/index.js';
import { tokenServiceRoutes } from './modules/identity/token-service/index.js';
import { usersRoutes } from './modules/identity/users/index.js';
import { scimRoutes } from './modules/identity/scim/index.js';
import { asyncRequestsRoutes } from './modules/integration/async-requests/index.js';
import { webhooksRoutes } from './modules/integration/webhooks/index.js';
import { webhookCallsRoutes } from './modules/integration/webhooks/index.js';
import { profileRoutes } from './modules/identity/users/index.js';
import { organizationsRoutes } from './modules/identity/organization-admin/index.js';
import { setupRecordsRoutes } from './modules/organization-setup/setup-records/index.js';
import { languagesRoutes } from './modules/organization-setup/languages/index.js';
import { customFieldsRoutes } from './modules/organization-setup/custom-fields/index.js';
import { vendorsRoutes } from './modules/organization-setup/vendors/index.js';
import { buyersRoutes } from './modules/organization-setup/vendors/index.js';
import { servicesRoutes } from './modules/organization-setup/services/index.js';
import { workflowStepsRoutes } from './modules/organization-setup/workflow-steps/index.js';
import { additionalWorkflowStepsRoutes } from './modules/organization-setup/workflow-steps/index.js';
import { emailTemplatesRoutes } from './modules/organization-setup/email-templates/index.js';
import { dueDateSchemesRoutes } from './modules/organization-setup/due-date-schemes/index.js';
import { priceListsRoutes } from './modules/organization-setup/price-lists/index.js';
import { netRateSchemesRoutes } from './modules/organization-setup/net-rate-schemes/index.js';
import { lqaProfilesRoutes } from './modules/organization-setup/lqa-profiles/index.js';
import { segmentationRulesRoutes } from './modules/organization-setup/segmentation-rules/index.js';
import { importSettingsRoutes, xmlAssistantRoutes } from './modules/organization-setup/import-settings/index.js';
import { customFileTypesRoutes } from './modules/organization-setup/custom-file-types/index.js';
import { notificationsRoutes } from './modules/integration/notifications/index.js';
import { projectTransMemoriesRoutes, projectsRoutes } from './modules/translation-workflow/projects/index.js';
import { installWorkflowRecordAccess, setJobStatusGuard } from './modules/translation-workflow/kernel/index.js';
import { projectTemplatesRoutes, templateTransMemoriesRoutes } from './modules/translation-workflow/project-templates/index.js';
import { jobTransMemoriesRoutes } from './modules/translation-workflow/job-trans-memories/index.js';
import { customFieldInstancesRoutes } from './modules/translation-workflow/custom-field-instances/index.js';
import { jobsRoutes } from './modules/translation-workflow/jobs/index.js';
import { jobFilesRoutes } from './modules/translation-workflow/job-files/index.js';
import { jobPreviewsRoutes } from './modules/translation-workflow/job-previews/index.js';
import { jobOperationsRoutes } from './modules/translation-workflow/job-operations/index.js';
import { jobContentRoutes } from './modules/translation-workflow/job-content/index.js';
import { fileHandoversRoutes } from './modules/translation-workflow/file-handovers/index.js';
import { jobStructureRoutes } from './modules/translation-workflow/job-structure/index.js';
import { workflowChangesRoutes } from './modules/translation-workflow/workflow-changes/index.js';
import { jobUpdatesRoutes } from './modules/translation-workflow/job-updates/index.js';
import { bilingualFilesRoutes } from './modules/translation-workflow/bilingual-files/index.js';
import { referenceFilesRoutes } from './modules/translation-workflow/reference-files/index.js';
import { filesRoutes } from './modules/translation-workflow/files/index.js';
import { translationMemoriesRoutes, translationMemoryTransfersRoutes } from './modules/language-resources/translation-memories/index.js';
import { termBasesRoutes, termSearchRoutes, termsRoutes, termTransfersRoutes } from './modules/language-resources/term-bases/index.js';
import { jobTermBasesRoutes } from './modules/translation-workflow/job-term-bases/index.js';
import { spellCheckRoutes } from './modules/language-resources/spell-check/index.js';
import { jobSpellCheckRoutes } from './modules/translation-workflow/job-spell-check/index.js';
import { preTranslateSettingsRoutes, projectMtSettingsRoutes } from './modules/translation-workflow/project-mt-settings/index.js';
import { qaSettingsRoutes } from './modules/translation-workflow/qa-settings/index.js';
import { qaDeliveryGate, qualityAssuranceRoutes } from './modules/translation-workflow/quality-assurance/index.js';
import { glossariesRoutes } from './modules/language-resources/glossaries/index.js';
import { machineTranslationRoutes } from './modules/language-resources/machine-translation/index.js';
import { preTranslationRoutes } from './modules/translation-workflow/pre-translation/index.js';
import { qualityEvaluationRoutes } from './modules/translation-workflow/quality-evaluation/index.js';
import {
  analyseSettingsRoutes,
  analysesOlderVersionsRoutes,
  analysesRoutes,
  analysisDownloadRoutes,
} from './modules/quoting/analyses/index.js';
import { quotesRoutes } from './modules/quoting/quotes/index.js';
import { installUploadParsing } from './http/uploads.js';
import { installRequestBodies } from './http/request-bodies.js';

/** Longest path parameter the router matches; longer ones are refused before routing. */
const MAX_PARAM_LENGTH = 500;

/** The TMS API is served at both prefixes, as the published service does. */
export const API_PREFIXES = ['/api2', '/web/api2'] as const;

export interface BuildOptions {
  /**
   * The logger: by default `createLogger(config.logLevel)` (src/logging.ts, the configuration every
   * process shares, secrets redacted) on stdout; `{stream, level}` for the same configuration
   * writing elsewhere (tests that read the log); a logger of `createLogger`; or `false` for none.
   */
  logger?: FastifyBaseLogger | { stream: DestinationStream; level?: string } | false;
}

/**
 * Builds the whole HTTP application without listening, so that tests drive it with `inject`
 * and main.ts decides where it listens.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const option = options.logger;
  const logger =
    option === undefined || (option && 'stream' in option) ? createLogger(option?.level ?? deps.config.logLevel, option?.stream) : option;
  const app = Fastify({
    ...(logger === false ? { logger: false } : { loggerInstance: logger }),
    genReqId: requestId,
    // NOTE: Fastify accepts a hop count here (documented), but its types leave numbers out.
    trustProxy: deps.config.trustProxy as boolean | string[],
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // What the router and Node's HTTP parser refuse never reaches the error handler; these answer
    // it in the same error shape (src/http/errors.ts).
    frameworkErrors: frameworkErrorHandler(MAX_PARAM_LENGTH),
    clientErrorHandler,
    // Clients that keep a connection open must not hold up a shutdown.
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  installRouteRegistry(app);
  installValidation(app);
  installErrorHandler(app);
  installNotFoundHandler(app);
  const credentials = startCredentialCache(deps.database, {
    ttlMs: deps.config.credentialCacheSeconds * 1000,
    listenConnectionString: deps.config.databaseUrl,
    log: app.log,
  });
  app.addHook('onClose', () => credentials.close());
  installAccessControl(app, createAuthenticator(deps, credentials.cache), ['/api2', '/web/api2', '/health', '/idm']);
  await installRateLimit(app, deps);
  installNumericPathIds(app, deps.database.db);
  installWorkflowRecordAccess(app, deps.database.db);
  // The delivery gate of QA answers every job status move (docs/qa-runs-and-warnings.md).
  setJobStatusGuard(qaDeliveryGate);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await installOpenApi(app, VERSION);

  await app.register(healthRoutes(deps));
  await app.register(tokenServiceRoutes(deps));
  for (const prefix of API_PREFIXES) {
    await app.register(
      async (api) => {
        await installUploadParsing(api, deps.config.uploadLimitBytes);
        installRequestBodies(api);
        await api.register(authRoutes(deps));
        await api.register(usersRoutes(deps));
        await api.register(scimRoutes(deps));
        await api.register(asyncRequestsRoutes(deps));
        await api.register(webhooksRoutes(deps));
        await api.register(webhookCallsRoutes(deps));
        await api.register(apiTokensRoutes(deps));
        await api.register(serviceAccountsRoutes(deps));
        await api.register(profileRoutes(deps));
        await api.register(organizationsRoutes(deps));
        await api.register(setupRecordsRoutes(deps));
        await api.register(languagesRoutes(deps));
        await api.register(customFieldsRoutes(deps));
        await api.register(vendorsRoutes(deps));
        await api.register(buyersRoutes(deps));
        await api.register(servicesRoutes(deps));
        await api.register(workflowStepsRoutes(deps));
        await api.register(additionalWorkflowStepsRoutes(deps));
        await api.register(emailTemplatesRoutes(deps));
        await api.register(dueDateSchemesRoutes(deps));
        await api.register(priceListsRoutes(deps));
        await api.register(netRateSchemesRoutes(deps));
        await api.register(segmentationRulesRoutes(deps));
        await api.register(lqaProfilesRoutes(deps));
        await api.register(importSettingsRoutes(deps));
        await api.register(xmlAssistantRoutes(deps));
        await api.register(customFileTypesRoutes(deps));
        await api.register(notificationsRoutes(deps));
        await api.register(translationMemoriesRoutes(deps));
        await api.register(termBasesRoutes(deps));
        await api.register(termsRoutes(deps));
        await api.register(termTransfersRoutes(deps));
        await api.register(glossariesRoutes(deps));
        await api.register(machineTranslationRoutes(deps));
        await api.register(preTranslationRoutes(deps));
        await api.register(qualityEvaluationRoutes(deps));
        await api.register(termSearchRoutes(deps));
        await api.register(jobTermBasesRoutes(deps));
        await api.register(spellCheckRoutes(deps));
        await api.register(jobSpellCheckRoutes(deps));
        await api.register(translationMemoryTransfersRoutes(deps));
        await api.register(projectsRoutes(deps));
        await api.register(analysesRoutes(deps));
        await api.register(quotesRoutes(deps));
        await api.register(analysisDownloadRoutes(deps));
        await api.register(analyseSettingsRoutes(deps));
        await api.register(analysesOlderVersionsRoutes(deps));
        await api.register(projectTemplatesRoutes(deps));
        await api.register(customFieldInstancesRoutes(deps));
        await api.register(jobsRoutes(deps));
        await api.register(jobFilesRoutes(deps));
        await api.register(jobPreviewsRoutes(deps));
        await api.register(jobOperationsRoutes(deps));
        await api.register(jobContentRoutes(deps));
        await api.register(fileHandoversRoutes(deps));
        await api.register(jobStructureRoutes(deps));
        await api.register(workflowChangesRoutes(deps));
        await api.register(jobUpdatesRoutes(deps));
        await api.register(bilingualFilesRoutes(deps));
        await api.register(projectTransMemoriesRoutes(deps));
        await api.register(templateTransMemoriesRoutes(deps));
        await api.register(jobTransMemoriesRoutes(deps));
        await api.register(projectMtSettingsRoutes(deps));
        await api.register(preTranslateSettingsRoutes(deps));
        await api.register(qaSettingsRoutes(deps));
        await api.register(qualityAssuranceRoutes(deps));
        await api.register(referenceFilesRoutes(deps));
        await api.register(filesRoutes(deps));
      },
      { prefix },
    );
  }

  await app.ready();
  return app;
}
