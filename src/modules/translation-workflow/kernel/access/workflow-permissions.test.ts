import { describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../../../../domain/users/role-settings.js';
import type { Role } from '../../../../domain/users/role-settings.js';
import { ACCESS_RULES, PERMISSIONS, RELATIONS, grantedPermissions, reveals, viewingRelations } from './workflow-permissions.js';
import type { Permission, RecordKind, Relation } from './workflow-permissions.js';

/** The permission table, decided for callers and relations by hand (docs/workflow-kernel.md). */

const subject = (role: Role, rights: Record<string, boolean> = {}) => ({
  role,
  settings: parseRoleSettings(role, JSON.stringify({ rights })),
});

function granted<K extends RecordKind>(kind: K, who: ReturnType<typeof subject>, relations: readonly Relation<K>[]): Permission<K>[] {
  return [...grantedPermissions(kind, who, (r) => relations.includes(r))].sort();
}

const noOtherRights = {
  projectViewOther: false,
  projectEditOther: false,
  projectDeleteOther: false,
  projectTemplateViewOther: false,
  projectTemplateEditOther: false,
  projectTemplateDeleteOther: false,
};

describe('the permission table', () => {
  it('names only permissions and relations of the rule’s record kind', () => {
    for (const rule of ACCESS_RULES) {
      expect(RELATIONS[rule.record] as readonly string[]).toContain(rule.relation);
      for (const p of rule.grants) expect(PERMISSIONS[rule.record] as readonly string[]).toContain(p);
    }
  });

  it.each([
    // role, rights, relations holding, expected project permissions
    [
      'ADMIN',
      {},
      ['organization'],
      ['clone', 'createJobs', 'delete', 'edit', 'readReferences', 'setStatus', 'translate', 'view', 'writeReferences'],
    ],
    ['ADMIN', {}, ['vendor'], ['readReferences', 'setStatus', 'setVendorStatus', 'view']],
    ['ADMIN', {}, ['vendor', 'vendorUploader'], ['readReferences', 'setStatus', 'setVendorStatus', 'view', 'writeReferences']],
    [
      'PROJECT_MANAGER',
      noOtherRights,
      ['organization', 'owner', 'managed'],
      ['clone', 'createJobs', 'delete', 'edit', 'readReferences', 'setStatus', 'translate', 'view', 'writeReferences'],
    ],
    ['PROJECT_MANAGER', noOtherRights, ['organization', 'managed'], []],
    [
      'PROJECT_MANAGER',
      {},
      ['organization', 'managed'],
      ['clone', 'createJobs', 'delete', 'edit', 'readReferences', 'setStatus', 'translate', 'view', 'writeReferences'],
    ],
    [
      'PROJECT_MANAGER',
      { projectEditOther: false, projectDeleteOther: false },
      ['organization', 'managed'],
      ['clone', 'readReferences', 'view', 'writeReferences'],
    ],
    // Outside the manager's client/business unit lists: edit rights alone reveal nothing.
    ['PROJECT_MANAGER', {}, ['organization'], ['createJobs', 'delete', 'edit', 'setStatus', 'translate']],
    ['PROJECT_MANAGER', {}, ['vendor'], ['readReferences', 'setStatus', 'setVendorStatus', 'view']],
    ['LINGUIST', {}, ['organization', 'provider'], ['readReferences', 'translate', 'view']],
    ['LINGUIST', {}, ['organization'], []],
    // A manager who provides a job works on it without seeing the project otherwise: nothing revealed.
    ['PROJECT_MANAGER', noOtherRights, ['organization', 'managed', 'provider'], ['translate']],
    ['GUEST', {}, ['organization', 'client'], ['readReferences', 'view', 'writeReferences']],
    ['GUEST', { projectViewOther: false }, ['organization', 'client'], []],
    ['GUEST', { projectViewOther: false }, ['organization', 'client', 'clientCreator'], ['readReferences', 'view', 'writeReferences']],
    ['SUBMITTER', {}, ['organization', 'creator', 'submitters'], ['createJobs', 'readReferences', 'view', 'writeReferences']],
    ['SUBMITTER', {}, ['organization', 'submitters'], []],
    [
      'SUBMITTER',
      { projectViewCreatedByOtherSubmitters: true },
      ['organization', 'submitters'],
      ['readReferences', 'view', 'writeReferences'],
    ],
    ['SYS_ADMIN', {}, ['organization', 'owner'], []],
  ] as const)('projects: %s %j standing %j may %j', (role, rights, relations, expected) => {
    expect(granted('project', subject(role, rights), relations)).toEqual(expected);
  });

  it.each([
    ['ADMIN', ['projectViewer', 'projectEditor', 'projectDeleter'], ['delete', 'edit', 'setStatus', 'translate', 'view']],
    ['ADMIN', ['projectViewer'], ['view']],
    ['GUEST', ['projectViewer'], ['view']],
    ['LINGUIST', ['projectViewer', 'provider'], ['setStatus', 'translate', 'view']],
    ['PROJECT_MANAGER', ['projectViewer', 'provider'], ['setStatus', 'translate', 'view']],
    // A linguist sees the project through another job of theirs, not this one.
    ['LINGUIST', ['projectViewer'], []],
  ] as const)('jobs: %s standing %j may %j', (role, relations, expected) => {
    expect(granted('job', subject(role), relations)).toEqual(expected);
  });

  it.each([
    ['ADMIN', {}, ['organization'], ['delete', 'edit', 'readReferences', 'use', 'view', 'writeReferences']],
    [
      'PROJECT_MANAGER',
      noOtherRights,
      ['organization', 'owner', 'managed'],
      ['delete', 'edit', 'readReferences', 'use', 'view', 'writeReferences'],
    ],
    ['PROJECT_MANAGER', noOtherRights, ['organization', 'managed'], []],
    [
      'PROJECT_MANAGER',
      { projectTemplateEditOther: false, projectTemplateDeleteOther: false },
      ['organization', 'managed'],
      ['readReferences', 'use', 'view'],
    ],
    ['SUBMITTER', {}, ['organization'], ['use']],
    ['LINGUIST', {}, ['organization'], ['readReferences']],
    ['GUEST', {}, ['organization'], ['readReferences']],
  ] as const)('templates: %s %j standing %j may %j', (role, rights, relations, expected) => {
    expect(granted('template', subject(role, rights), relations)).toEqual(expected);
  });

  it('reveals a record through its kind’s revealing permissions only', () => {
    expect(reveals('project', new Set(['edit', 'delete'] as const))).toBe(false);
    expect(reveals('project', new Set(['view'] as const))).toBe(true);
    expect(reveals('template', new Set(['use'] as const))).toBe(true);
    expect(reveals('job', new Set(['setStatus'] as const))).toBe(false);
  });

  it('lists the relations that let a caller see records in lists', () => {
    expect(viewingRelations('project', subject('LINGUIST'))).toEqual(['provider']);
    expect(viewingRelations('project', subject('PROJECT_MANAGER', noOtherRights)).sort()).toEqual(['owner', 'vendor']);
    expect(viewingRelations('project', subject('GUEST', { projectViewOther: false }))).toEqual(['clientCreator']);
    expect(viewingRelations('template', subject('SUBMITTER'))).toEqual([]);
  });
});
