/**
 * The webhook events of the published API (spec enum of WebHookDtoV2.events, 26 names), and the
 * shape of their payloads: `{event, timestamp, eventUid, metadata, <records>}` with the affected
 * records under the key Phrase uses for them. Pure: the previews and the tests use it as is.
 */
export const WEBHOOK_EVENTS = [
  'JOB_STATUS_CHANGED',
  'JOB_CREATED',
  'JOB_DELETED',
  'JOB_UNSHARED',
  'JOB_ASSIGNED',
  'JOB_DUE_DATE_CHANGED',
  'JOB_UPDATED',
  'JOB_TARGET_UPDATED',
  'JOB_EXPORTED',
  'JOB_UNEXPORTED',
  'PROJECT_CREATED',
  'PROJECT_DELETED',
  'PROJECT_UNSHARED',
  'PROJECT_STATUS_CHANGED',
  'PROJECT_DUE_DATE_CHANGED',
  'SHARED_PROJECT_ASSIGNED',
  'PROJECT_METADATA_UPDATED',
  'PRE_TRANSLATION_FINISHED',
  'ANALYSIS_CREATED',
  'CONTINUOUS_JOB_UPDATED',
  'PROJECT_TEMPLATE_CREATED',
  'PROJECT_TEMPLATE_UPDATED',
  'PROJECT_TEMPLATE_DELETED',
  'RAW_MT_CONVERTER_IMPORT_FINISHED',
  'RAW_MT_PRE_TRANSLATION_FINISHED',
  'RAW_MT_QUALITY_ESTIMATION_FINISHED',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** Under which key an event's records travel. */
export function recordKeyOf(event: WebhookEvent): 'jobParts' | 'project' | 'projectTemplate' | 'analyse' {
  if (event.startsWith('PROJECT_TEMPLATE_')) return 'projectTemplate';
  if (event.startsWith('PROJECT_') || event === 'SHARED_PROJECT_ASSIGNED') return 'project';
  if (event === 'ANALYSIS_CREATED') return 'analyse';
  return 'jobParts';
}

export interface EventMetadata {
  organization: { uid: string; name: string } | null;
  user: { uid: string; userName: string; firstName: string; lastName: string } | null;
}

export interface EventPayload {
  event: WebhookEvent;
  /** Milliseconds since the epoch, as Phrase sends it. */
  timestamp: number;
  eventUid: string;
  metadata: EventMetadata;
  [records: string]: unknown;
}

export function buildPayload(event: WebhookEvent, records: unknown, at: Date, eventUid: string, metadata: EventMetadata): EventPayload {
  return { event, timestamp: at.getTime(), eventUid, metadata, [recordKeyOf(event)]: records };
}

const SAMPLE_JOB = {
  uid: 'aBcDeFgHiJkLmNoPqRsTuV',
  innerId: '1',
  status: 'COMPLETED_BY_LINGUIST',
  targetLang: 'de_de',
  workflowLevel: 1,
  filename: 'example.docx',
  dateDue: '2026-12-01T12:00:00Z',
  project: { uid: 'pRoJeCtUiDxxxxxxxxxxxx', name: 'Example project' },
};
const SAMPLE_PROJECT = {
  uid: 'pRoJeCtUiDxxxxxxxxxxxx',
  id: '1',
  name: 'Example project',
  status: 'NEW',
  sourceLang: 'en',
  targetLangs: ['de_de', 'cs_cz'],
};
const SAMPLE_TEMPLATE = {
  uid: 'tEmPlAtEuIdxxxxxxxxxxx',
  id: '1',
  templateName: 'Example template',
  sourceLang: 'en',
  targetLangs: ['de_de'],
};
const SAMPLE_ANALYSIS = {
  uid: 'aNaLySiSuIdxxxxxxxxxxx',
  id: '1',
  name: 'Analysis #1',
  type: 'PreAnalyse',
  project: { uid: SAMPLE_PROJECT.uid, name: SAMPLE_PROJECT.name },
};

/** An example payload of `event`, for the previews and for test deliveries. */
export function samplePayload(event: WebhookEvent, at: Date, eventUid: string, metadata: EventMetadata): EventPayload {
  const key = recordKeyOf(event);
  const records =
    key === 'jobParts' ? [SAMPLE_JOB] : key === 'project' ? SAMPLE_PROJECT : key === 'projectTemplate' ? SAMPLE_TEMPLATE : SAMPLE_ANALYSIS;
  return buildPayload(event, records, at, eventUid, metadata);
}

/**
 * Delivery retries: after the first attempt, up to 10 more, waiting 30 s, 1, 2, 4, 8, 16 minutes,
 * then 30 minutes for each of the rest (Phrase: up to ten retries, delays up to thirty minutes).
 */
export const DELIVERY_ATTEMPTS = 11;
export function deliveryBackoffMs(failedAttempt: number): number {
  return Math.min(30 * 60_000, 30_000 * 2 ** (failedAttempt - 1));
}

/** A webhook whose calls failed for good this many times in a row is disabled. */
export const DISABLE_AFTER_FAILED_CALLS = 10;
