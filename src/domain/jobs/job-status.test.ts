import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, statusMoveRefusal } from './job-status.js';
import type { JobActor, JobStatus } from './job-status.js';

describe('job status moves', () => {
  const cases: [JobActor, JobStatus, JobStatus, boolean, ReturnType<typeof statusMoveRefusal>][] = [
    ['PROVIDER', 'NEW', 'ACCEPTED', false, null],
    ['PROVIDER', 'NEW', 'DECLINED', false, null],
    ['PROVIDER', 'EMAILED', 'ACCEPTED', false, null],
    ['PROVIDER', 'ACCEPTED', 'DELIVERED', false, null],
    ['PROVIDER', 'DELIVERED', 'ACCEPTED', false, null],
    ['PROVIDER', 'ACCEPTED', 'REJECTED', true, null],
    ['PROVIDER', 'ACCEPTED', 'REJECTED', false, 'REJECT_RIGHT_MISSING'],
    ['PROVIDER', 'NEW', 'DELIVERED', false, 'NOT_ALLOWED'],
    ['PROVIDER', 'ACCEPTED', 'COMPLETED', false, 'NOT_ALLOWED'],
    ['PROVIDER', 'COMPLETED', 'ACCEPTED', false, 'NOT_ALLOWED'],
    ['PROVIDER', 'CANCELLED', 'NEW', false, 'NOT_ALLOWED'],
    ['PROVIDER', 'ACCEPTED', 'ACCEPTED', false, 'UNCHANGED'],
    ['OTHER', 'NEW', 'ACCEPTED', false, 'NOT_ALLOWED'],
  ];
  for (const [actor, from, to, mayRejectJobs, expected] of cases) {
    it(`${actor}: ${from} -> ${to}${mayRejectJobs ? ' (mayRejectJobs)' : ''} = ${expected ?? 'allowed'}`, () => {
      expect(statusMoveRefusal(actor, from, to, { mayRejectJobs })).toBe(expected);
    });
  }

  it('managers may set every status from every status', () => {
    for (const from of JOB_STATUSES) for (const to of JOB_STATUSES) expect(statusMoveRefusal('MANAGER', from, to)).toBeNull();
  });

  it('no provider move leaves COMPLETED or CANCELLED', () => {
    for (const to of JOB_STATUSES) {
      expect(statusMoveRefusal('PROVIDER', 'COMPLETED', to, { mayRejectJobs: true })).not.toBeNull();
      expect(statusMoveRefusal('PROVIDER', 'CANCELLED', to, { mayRejectJobs: true })).not.toBeNull();
    }
  });
});
