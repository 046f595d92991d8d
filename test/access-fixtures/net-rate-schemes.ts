import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A net rate scheme of organization A with a scheme of its own for the first workflow step. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const steps = await t.inject({ url: '/api2/v1/workflowSteps', headers: adminHeaders });
  const stepId = (steps.json() as { content: { id: string }[] }).content[0]?.id;
  if (!stepId) throw new Error(`fixture workflowSteps: ${steps.statusCode} ${steps.body}`);
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/netRateSchemes',
    headers: adminHeaders,
    payload: { name: 'Matrix net rate scheme', workflowStepNetSchemes: [{ workflowStep: { id: stepId } }] },
  });
  if (response.statusCode !== 201) throw new Error(`fixture netRateSchemes: ${response.statusCode} ${response.body}`);
  const scheme = response.json() as { uid: string; workflowStepNetSchemes: { id: string }[] };
  return {
    values: {
      netRateSchemeUid: scheme.uid,
      netRateSchemeWorkflowStepId: scheme.workflowStepNetSchemes[0]!.id,
    },
    bodies: {
      'PUT /api2/v1/netRateSchemes/:netRateSchemeUid': { name: 'Matrix net rate scheme' },
      'PUT /api2/v2/netRateSchemes/:netRateSchemeUid': { name: 'Matrix net rate scheme' },
      'POST /api2/v1/netRateSchemes/:netRateSchemeUid/clone': {},
      'PUT /api2/v1/netRateSchemes/:netRateSchemeUid/workflowStepNetSchemes/:netRateSchemeWorkflowStepId': { rates: { tm100: 20 } },
    },
  };
};
export default build;
