export {
  countOrganizations,
  findOrganizationById,
  findOrganizationByUid,
  findSystemOrganization,
  insertOrganization,
  listOrganizations,
  updateOrganization,
} from './organizations.repository.js';
export type { OrganizationRow } from './organizations.repository.js';
