export { createFromTemplateTask } from './create-from-template.task.js';
export { projectsRoutes } from './projects.routes.js';
export { projectTransMemoriesRoutes } from './project-trans-memories.routes.js';
