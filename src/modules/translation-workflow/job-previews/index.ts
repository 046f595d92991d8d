/**
 * Job previews (docs/previews.md): previews of jobs' translated documents (HTML, rendered
 * Markdown, PDF of Office documents, unit listings), of bilingual files, target-file warnings and
 * job preview packages.
 */
export { jobPreviewsRoutes } from './job-previews.routes.js';
