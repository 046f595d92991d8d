import type { Migration } from 'kysely';
import * as organizationsUsers from './2026-11-21T1300_organizations_users.js';
import * as identityAndAccess from './2026-11-21T1400_identity_and_access.js';
import * as userNamesIgnoreCase from './2026-11-21T1500_user_names_ignore_case.js';
import * as taskQueue from './2026-11-21T1600_task_queue.js';
import * as asyncRequestsAndWebhooks from './2026-11-21T1610_async_requests_and_webhooks.js';
import * as setupRecords from './2026-11-21T1700_setup_records.js';
import * as workflowStepsAndOrganizationDefaults from './2026-11-21T1710_workflow_steps_and_organization_defaults.js';
import * as customFields from './2026-11-21T1720_custom_fields.js';
import * as vendorsAndServices from './2026-11-21T1730_vendors_and_services.js';
import * as projectsTemplatesJobs from './2026-11-21T1800_projects_templates_jobs.js';
import * as jobHandoverFiles from './2026-11-21T1860_job_handover_files.js';
import * as credentialChangeNotifications from './2026-11-24T1200_credential_change_notifications.js';
import * as taskInterruptions from './2026-11-24T1300_task_interruptions.js';
import * as translationMemories from './2026-11-24T1400_translation_memories.js';
import * as tmTransfers from './2026-11-24T1410_tm_transfers.js';
import * as tmUnitsImportKeys from './2026-11-25T0900_tm_units_import_keys.js';
import * as netRateSchemesAndPriceLists from './2026-11-25T1000_net_rate_schemes_and_price_lists.js';
import * as analyses from './2026-11-25T1100_analyses.js';
import * as quotes from './2026-11-25T1200_quotes.js';
import * as termBases from './2026-11-29T0900_term_bases.js';
import * as termBaseConceptsAndTerms from './2026-11-29T1000_term_base_concepts_and_terms.js';
import * as glossaries from './2026-11-29T1100_glossaries.js';
import * as machineTranslation from './2026-11-29T1200_machine_translation.js';
import * as segmentationRules from './2026-11-30T1000_segmentation_rules.js';
import * as importSettingsAndFileTypes from './2026-11-30T1100_import_settings_and_file_types.js';
import * as jobPreviews from './2026-11-30T1200_job_previews.js';
import * as sourceSegmentFacts from './2026-11-30T1300_source_segment_facts.js';
import * as spellingDictionaries from './2026-12-01T1000_spelling_dictionaries.js';
import * as lqaProfiles from './2026-12-01T1100_lqa_profiles.js';
import * as qaRunsAndWarnings from './2026-12-01T1300_qa_runs_and_warnings.js';
import * as qualityEvaluation from './2026-12-01T1400_quality_evaluation.js';

/**
 * Every migration, by name. Names start with the date they were written, so they sort in the
 * order they must run; a released migration is frozen and never edited.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-21T1300_organizations_users': organizationsUsers,
  '2026-11-21T1400_identity_and_access': identityAndAccess,
  '2026-11-21T1500_user_names_ignore_case': userNamesIgnoreCase,
  '2026-11-21T1600_task_queue': taskQueue,
  '2026-11-21T1610_async_requests_and_webhooks': asyncRequestsAndWebhooks,
  '2026-11-21T1700_setup_records': setupRecords,
  '2026-11-21T1710_workflow_steps_and_organization_defaults': workflowStepsAndOrganizationDefaults,
  '2026-11-21T1720_custom_fields': customFields,
  '2026-11-21T1730_vendors_and_services': vendorsAndServices,
  '2026-11-21T1800_projects_templates_jobs': projectsTemplatesJobs,
  '2026-11-21T1860_job_handover_files': jobHandoverFiles,
  '2026-11-24T1200_credential_change_notifications': credentialChangeNotifications,
  '2026-11-24T1300_task_interruptions': taskInterruptions,
  '2026-11-24T1400_translation_memories': translationMemories,
  '2026-11-24T1410_tm_transfers': tmTransfers,
  '2026-11-25T0900_tm_units_import_keys': tmUnitsImportKeys,
  '2026-11-25T1000_net_rate_schemes_and_price_lists': netRateSchemesAndPriceLists,
  '2026-11-25T1100_analyses': analyses,
  '2026-11-25T1200_quotes': quotes,
  '2026-11-29T0900_term_bases': termBases,
  '2026-11-29T1000_term_base_concepts_and_terms': termBaseConceptsAndTerms,
  '2026-11-29T1100_glossaries': glossaries,
  '2026-11-29T1200_machine_translation': machineTranslation,
  '2026-11-30T1000_segmentation_rules': segmentationRules,
  '2026-11-30T1100_import_settings_and_file_types': importSettingsAndFileTypes,
  '2026-11-30T1200_job_previews': jobPreviews,
  '2026-11-30T1300_source_segment_facts': sourceSegmentFacts,
  '2026-12-01T1000_spelling_dictionaries': spellingDictionaries,
  '2026-12-01T1100_lqa_profiles': lqaProfiles,
  '2026-12-01T1300_qa_runs_and_warnings': qaRunsAndWarnings,
  '2026-12-01T1400_quality_evaluation': qualityEvaluation,
};
