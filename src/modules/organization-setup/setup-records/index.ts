export {
  NamedReference,
  UidReference,
  WorkflowStepReference,
  inWorkflowOrder,
  namedReferences,
  referenceNotFound,
  resolveReferences,
  workflowStepReferences,
} from './record-references.js';
export { setupRecordsRoutes } from './setup-records.routes.js';
