import { AUTHENTICATED, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import type { ProjectViewKind } from './project-access.js';

/** Who may call the project routes (docs/projects.md, "Access"); record rules are in project-access.ts. */

/** Reading projects: every role project-access.ts lets see projects. */
export const PROJECT_READERS: Access = AUTHENTICATED;
/** Changing projects: ADMIN and PROJECT_MANAGER (own projects; others' with projectEditOther / projectDeleteOther). */
export const PROJECT_EDITORS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Creating projects from nothing (create v3, clone): ADMIN, and PROJECT_MANAGER with projectCreate. */
export const PROJECT_CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'projectCreate' };
/** Creating projects from a template: also SUBMITTER (the submitter portal); PMs need projectCreate (checked per request). */
export const TEMPLATE_PROJECT_CREATORS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'SUBMITTER');

/** The view kind of a project of the caller's own organization. */
export function ownView(caller: Caller): ProjectViewKind {
  return caller.role === 'LINGUIST' ? 'LINGUIST' : 'MANAGER';
}
