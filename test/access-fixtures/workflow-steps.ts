import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A workflow step, an additional workflow step, an email template and a due date scheme of organization A. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const create = async (path: string, payload: Record<string, unknown>) => {
    const response = await t.inject({ method: 'POST', url: `/api2/v1/${path}`, headers: adminHeaders, payload });
    if (response.statusCode !== 201) throw new Error(`fixture ${path}: ${response.statusCode} ${response.body}`);
    return response.json() as { uid: string; id: string };
  };
  const templates = await t.inject({ url: '/api2/v1/emailTemplates?type=JobAssigned', headers: adminHeaders });
  const templateUid = (templates.json() as { content: { uid: string }[] }).content[0]?.uid;
  if (!templateUid) throw new Error(`fixture emailTemplates: ${templates.statusCode} ${templates.body}`);
  return {
    values: {
      workflowStepUid: (await create('workflowSteps', { name: 'Matrix step', abbr: 'MX' })).uid,
      '/api2/v1/additionalWorkflowSteps/:id:id': (await create('additionalWorkflowSteps', { name: 'Matrix additional step' })).id,
      // Route-specific: `templateUid` alone names the project template of _workflow.ts.
      '/api2/v1/emailTemplates/:templateUid:templateUid': templateUid,
      dueDateSchemeUid: (await create('dueDateSchemes', { name: 'Matrix scheme' })).uid,
    },
    bodies: {
      'PUT /api2/v1/workflowSteps/:workflowStepUid': { lqaEnabled: true },
    },
  };
};
export default build;
