export { notificationsRoutes } from './notifications.routes.js';
export { notifyUsers } from './notifications.service.js';
