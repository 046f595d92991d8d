import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { NamedReference, UidReference, WorkflowStepReference } from '../setup-records/index.js';

/**
 * Wire shapes of services (designed: the published spec has no service definitions; modelled on
 * Phrase TMS services and the neighbouring setup records).
 */

const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the organization, ignoring case.' });
const Description = Nullable(Type.String({ maxLength: 4096 }));
const WorkflowSteps = Type.Array(UidReference, {
  maxItems: 100,
  description: "The organization's workflow steps, by uid; they run in the organization's workflow order.",
});

export const CreateServiceBody = Type.Object({
  name: Name,
  description: Type.Optional(Description),
  active: Type.Optional(Type.Boolean({ default: true })),
  workflowSteps: Type.Optional(WorkflowSteps),
  priceList: Type.Optional(Nullable(UidReference)),
  projectTemplate: Type.Optional(Nullable(UidReference)),
});

/** Edit is a partial update: fields left out keep their values; null clears the nullable ones. */
export const UpdateServiceBody = Type.Object({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  active: Type.Optional(Type.Boolean()),
  workflowSteps: Type.Optional(WorkflowSteps),
  priceList: Type.Optional(Nullable(UidReference)),
  projectTemplate: Type.Optional(Nullable(UidReference)),
});

export const ServiceSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    active: Type.Boolean(),
    workflowSteps: Type.Array(WorkflowStepReference),
    priceList: Nullable(NamedReference),
    projectTemplate: Nullable(NamedReference),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    lastModifiedBy: Nullable(UserReference),
    dateModified: Type.String({ format: 'date-time' }),
  },
  { title: 'ServiceDto' },
);

export const ServicePage = PageOf(ServiceSchema, 'PageDtoServiceDto');

export const ServiceListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, ignoring case' })),
  active: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) services' })),
  ...PagingQuery,
});

export const ServiceUidParams = Type.Object({ serviceUid: recordUid('services') });

/** Body of deleteServices: `{ services: [{uid}] }`, all or none. */
export const DeleteServicesBody = Type.Object({ services: Type.Array(UidReference, { minItems: 1, maxItems: 1000 }) });
