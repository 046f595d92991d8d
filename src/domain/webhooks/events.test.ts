import { describe, expect, it } from 'vitest';
import { DELIVERY_ATTEMPTS, WEBHOOK_EVENTS, buildPayload, deliveryBackoffMs, recordKeyOf, samplePayload } from './events.js';

describe('webhook events', () => {
  it('has the 26 event names of the spec', () => {
    expect(WEBHOOK_EVENTS).toHaveLength(26);
    expect(new Set(WEBHOOK_EVENTS).size).toBe(26);
  });

  it.each([
    ['JOB_STATUS_CHANGED', 'jobParts'],
    ['PRE_TRANSLATION_FINISHED', 'jobParts'],
    ['PROJECT_CREATED', 'project'],
    ['SHARED_PROJECT_ASSIGNED', 'project'],
    ['PROJECT_TEMPLATE_DELETED', 'projectTemplate'],
    ['ANALYSIS_CREATED', 'analyse'],
  ] as const)('%s carries its records under %s', (event, key) => {
    expect(recordKeyOf(event)).toBe(key);
  });

  it('payloads carry event, timestamp (epoch ms), eventUid, metadata and the records', () => {
    const at = new Date('2026-11-21T12:00:00Z');
    const payload = buildPayload('PROJECT_CREATED', { uid: 'p1' }, at, 'e1', { organization: null, user: null });
    expect(payload).toEqual({
      event: 'PROJECT_CREATED',
      timestamp: at.getTime(),
      eventUid: 'e1',
      metadata: { organization: null, user: null },
      project: { uid: 'p1' },
    });
    for (const event of WEBHOOK_EVENTS)
      expect(samplePayload(event, at, 'e', { organization: null, user: null })[recordKeyOf(event)]).toBeDefined();
  });

  it.each([
    [1, 30_000],
    [2, 60_000],
    [6, 16 * 60_000],
    [7, 30 * 60_000],
    [10, 30 * 60_000],
  ])('after failed attempt %i the next waits %i ms', (attempt, ms) => {
    expect(deliveryBackoffMs(attempt)).toBe(ms);
  });

  it('retries ten times after the first attempt', () => {
    expect(DELIVERY_ATTEMPTS - 1).toBe(10);
  });
});
