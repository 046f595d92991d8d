/**
 * Placeholders of email templates: `{{object.field}}` (spaces inside the braces are allowed,
 * `{{ job.fileName }}`). Rendering replaces each known placeholder by its value and leaves
 * unknown ones as they are, so that a missing value shows in the message instead of vanishing.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)\s*\}\}/g;

/** Every placeholder the product fills in, by the object it describes. */
export const KNOWN_PLACEHOLDERS = [
  'recipient.firstName',
  'recipient.lastName',
  'recipient.fullName',
  'recipient.userName',
  'recipient.email',
  'sender.fullName',
  'actor.fullName',
  'organization.name',
  'project.name',
  'project.status',
  'project.previousStatus',
  'project.url',
  'job.fileName',
  'job.sourceLang',
  'job.targetLang',
  'job.workflowStep',
  'job.status',
  'job.previousStatus',
  'job.dateDue',
  'job.url',
  'vendor.name',
  'automation.name',
  'quote.name',
  'quote.status',
  'quote.totalPrice',
  'quote.currency',
  'lqa.reportUrl',
  'login.url',
  'login.passwordSetUrl',
] as const;

export type PlaceholderValues = Readonly<Record<string, string | number | null | undefined>>;

/** The placeholders a text uses, in order of first use. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** `text` with each placeholder whose value is given (not null/undefined) replaced by it. */
export function renderPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (whole, path: string) => {
    const value = values[path];
    return value === null || value === undefined ? whole : String(value);
  });
}
