import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from './deps.js';
import { VERSION } from './version.js';
import { installAccessControl } from './http/access.js';
import { installErrorHandler } from './http/errors.js';
import { installNotFoundHandler } from './http/method-not-allowed.js';
import { installOpenApi } from './http/openapi.js';
import { installRateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { installRouteRegistry } from './http/route-registry.js';
import { installValidation } from './http/validation.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthenticator } from './modules/auth/authenticate.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { serviceAccountsRoutes } from './modules/service-accounts/service-accounts.routes.js';
import { tokenServiceRoutes } from './modules/token-service/token-service.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { scimRoutes } from './modules/scim/scim.routes.js';
import { asyncRequestsRoutes } from './modules/async-requests/async-requests.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { webhookCallsRoutes } from './modules/webhooks/webhook-calls.routes.js';
import { profileRoutes } from './modules/users/profile.routes.js';
import { organizationsRoutes } from './modules/organizations/organizations.routes.js';
import { setupRecordsRoutes } from './modules/setup-records/setup-records.routes.js';
import { languagesRoutes } from './modules/languages/languages.routes.js';
import { customFieldsRoutes } from './modules/custom-fields/custom-fields.routes.js';
import { vendorsRoutes } from './modules/vendors/vendors.routes.js';
import { buyersRoutes } from './modules/vendors/buyers.routes.js';
import { servicesRoutes } from './modules/services/services.routes.js';
import { workflowStepsRoutes } from './modules/workflow-steps/workflow-steps.routes.js';
import { additionalWorkflowStepsRoutes } from './modules/workflow-steps/additional-workflow-steps.routes.js';
import { emailTemplatesRoutes } from './modules/email-templates/email-templates.routes.js';
import { dueDateSchemesRoutes } from './modules/due-date-schemes/due-date-schemes.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { projectTemplatesRoutes } from './modules/project-templates/project-templates.routes.js';
import { customFieldInstancesRoutes } from './modules/custom-field-instances/custom-field-instances.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { jobFilesRoutes } from './modules/job-files/job-files.routes.js';
import { jobOperationsRoutes } from './modules/job-operations/job-operations.routes.js';
import { jobContentRoutes } from './modules/job-content/job-content.routes.js';
import { fileHandoversRoutes } from './modules/file-handovers/file-handovers.routes.js';
import { jobStructureRoutes } from './modules/job-structure/job-structure.routes.js';
import { workflowChangesRoutes } from './modules/workflow-changes/workflow-changes.routes.js';
import { jobUpdatesRoutes } from './modules/job-updates/job-updates.routes.js';
import { referenceFilesRoutes } from './modules/reference-files/reference-files.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { installUploadParsing } from './http/uploads.js';

/** The TMS API is served at both prefixes, as the published service does. */
export const API_PREFIXES = ['/api2', '/web/api2'] as const;

export interface BuildOptions {
  /** Fastify's logger option; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the whole HTTP application without listening, so that tests drive it with `inject`
 * and main.ts decides where it listens.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // ISO 8601 times read better than epoch milliseconds and sort the same.
    logger: options.logger ?? { level: deps.config.logLevel, timestamp: () => `,"time":"${new Date().toISOString()}"` },
    genReqId: requestId,
    // NOTE: Fastify accepts a hop count here (documented), but its types leave numbers out.
    trustProxy: deps.config.trustProxy as boolean | string[],
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Clients that keep a connection open must not hold up a shutdown.
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  installRouteRegistry(app);
  installValidation(app);
  installErrorHandler(app);
  installNotFoundHandler(app);
  installAccessControl(app, createAuthenticator(deps), ['/api2', '/web/api2', '/health', '/idm']);
  await installRateLimit(app, deps);
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
        await api.register(notificationsRoutes(deps));
        await api.register(projectsRoutes(deps));
        await api.register(projectTemplatesRoutes(deps));
        await api.register(customFieldInstancesRoutes(deps));
        await api.register(jobsRoutes(deps));
        await api.register(jobFilesRoutes(deps));
        await api.register(jobOperationsRoutes(deps));
        await api.register(jobContentRoutes(deps));
        await api.register(fileHandoversRoutes(deps));
        await api.register(jobStructureRoutes(deps));
        await api.register(workflowChangesRoutes(deps));
        await api.register(jobUpdatesRoutes(deps));
        await api.register(referenceFilesRoutes(deps));
        await api.register(filesRoutes(deps));
      },
      { prefix },
    );
  }

  await app.ready();
  return app;
}
