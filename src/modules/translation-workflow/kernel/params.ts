import { uidParams } from '../../../http/schema-helpers.js';

/** The path parameters naming workflow records, defined once for every module's routes. */

export const ProjectUidParams = uidParams('projectUid');
export const JobUidParams = uidParams('projectUid', 'jobUid');
export const TemplateUidParams = uidParams('projectTemplateUid');
