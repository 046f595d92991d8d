export { recordLogin } from './login-events.repository.js';
export { profileRoutes } from './profile.routes.js';
export { resolveResourceOwner } from './resource-owners.js';
export { forgetSettingReferences } from './setting-references.js';
export { userReferenceLookup } from './user-references.js';
export { toUserReference } from './user-views.js';
export {
  countSeats,
  findUserById,
  findUserByIdAnyOrganization,
  findUserByUid,
  findUserByUserName,
  findUsersByIds,
  insertUser,
} from './users.repository.js';
export type { UserRow } from './users.repository.js';
export { usersRoutes } from './users.routes.js';
export { UserReference } from './users.schemas.js';
export { assertTimezone, assignableRoles, checkPassword, deleteUser, editUser, setPassword } from './users.service.js';
