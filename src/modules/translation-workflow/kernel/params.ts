import { Type } from 'typebox';
import { PathUid, recordUid } from '../../../http/schema-helpers.js';

/**
 * The path parameters naming workflow records, defined once for every module's routes. Projects
 * and templates are named by uid or by numeric id (src/http/record-ids.ts); jobs show no id.
 */

export const ProjectUid = recordUid('projects');
export const ProjectTemplateUid = recordUid('projectTemplates');
export const ProjectUidParams = Type.Object({ projectUid: ProjectUid });
export const JobUidParams = Type.Object({ projectUid: ProjectUid, jobUid: PathUid });
export const TemplateUidParams = Type.Object({ projectTemplateUid: ProjectTemplateUid });
