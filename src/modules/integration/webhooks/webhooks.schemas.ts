import { Type } from 'typebox';
import { WEBHOOK_EVENTS } from '../../../domain/webhooks/events.js';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { UserReference } from '../../identity/users/index.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';

export const WebhookEventSchema = Type.Enum([...WEBHOOK_EVENTS]);

/** Spec definition `CreateWebHookDto` (create and edit). */
export const WebhookBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: Type.Array(WebhookEventSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
  secretToken: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  hidden: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Enum(['ENABLED', 'DISABLED'])),
});

/** Spec definition `WebHookDtoV2`, plus `signingSecret` (OpenTMS extension: key of X-OpenTMS-Signature). */
export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Nullable(Type.String()),
    url: Type.String(),
    events: Type.Array(Type.String()),
    secretToken: Nullable(Type.String()),
    hidden: Type.Boolean(),
    status: Type.Enum(['ENABLED', 'DISABLED']),
    failedAttempts: Type.Integer(),
    created: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    lastModified: Type.String({ format: 'date-time' }),
    lastModifiedBy: Nullable(UserReference),
    signingSecret: Type.String({ description: 'OpenTMS extension: the key of the X-OpenTMS-Signature HMAC of each delivery.' }),
  },
  { title: 'WebHookDtoV2' },
);

export const WebhookPage = PageOf(WebhookSchema, 'PageDtoWebHookDtoV2');

/**
 * The older (v1) webhook record, `WebHookDto`, which `POST /api2/v1/webhooks` answers: the fields
 * v1 had, without those v2 added (`hidden`, `failedAttempts`, `created`, `createdBy`,
 * `lastModified`, `lastModifiedBy`). The 2024 Swagger no longer lists it (docs/async-and-webhooks.md).
 */
export const WebhookV1Schema = Type.Object(
  {
    id: WebhookSchema.properties.id,
    uid: WebhookSchema.properties.uid,
    name: WebhookSchema.properties.name,
    url: WebhookSchema.properties.url,
    events: WebhookSchema.properties.events,
    secretToken: WebhookSchema.properties.secretToken,
    status: WebhookSchema.properties.status,
    signingSecret: WebhookSchema.properties.signingSecret,
  },
  { title: 'WebHookDto' },
);

export const WebhookListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  status: Type.Optional(Type.Enum(['ENABLED', 'DISABLED'])),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  events: Type.Optional(Type.Array(WebhookEventSchema)),
  createdBy: Type.Optional(Type.Array(Type.String({ maxLength: 64 }))),
  modifiedBy: Type.Optional(Type.Array(Type.String({ maxLength: 64 }))),
  sortField: Type.Optional(Type.Enum(['NAME', 'STATUS', 'CREATED', 'LAST_MODIFIED'])),
  sortTrend: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
  ...PagingQuery,
});

export const WebhookUidParams = Type.Object({ webHookUid: recordUid('webhooks') });
export const TestWebhookParams = Type.Object({ webhookUid: recordUid('webhooks') });
export const TestWebhookQuery = Type.Object({ event: Type.String({ minLength: 1, maxLength: 64 }) });

export const PreviewsQuery = Type.Object({ events: Type.Optional(Type.Array(WebhookEventSchema)) });
/** Spec definition `WebhookPreviewsDto`. */
export const PreviewsSchema = Type.Object(
  { previews: Type.Array(Type.Object({ event: Type.String(), preview: Type.String() })) },
  { title: 'WebhookPreviewsDto' },
);

/** Spec definition `WebhookCallDto`. */
export const WebhookCallSchema = Type.Object(
  {
    uid: Type.String(),
    parentUid: Nullable(Type.String()),
    eventUid: Type.String(),
    webhookSettings: Type.Object({ uid: Type.String() }),
    createdAt: Type.String({ format: 'date-time' }),
    url: Type.String(),
    forced: Type.Boolean(),
    lastForcedAt: Nullable(Type.String({ format: 'date-time' })),
    body: Type.String(),
    triggerEvent: Type.String(),
    retryAttempt: Type.Integer(),
    statusCode: Nullable(Type.Integer()),
    errorMessage: Nullable(Type.String()),
  },
  { title: 'WebhookCallDto' },
);

export const WebhookCallPage = PageOf(WebhookCallSchema, 'PageDtoWebhookCallDto');

export const WebhookCallsQuery = Type.Object({
  events: Type.Optional(Type.Array(WebhookEventSchema)),
  status: Type.Optional(Type.Enum(['SUCCESS', 'FAIL'])),
  webhookUid: Type.Optional(Type.String({ maxLength: 64 })),
  parentUid: Type.Optional(Type.String({ maxLength: 64 })),
  ...PagingQuery,
});

/** Spec definition `ReplayRequestDto`. */
export const ReplayBody = Type.Object({
  webhookCalls: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 1000 }),
});

export const ReplayLatestQuery = Type.Object({
  numberOfCalls: Type.Integer({ minimum: 1, maximum: 1000, default: 1 }),
  events: Type.Optional(Type.Array(WebhookEventSchema)),
  status: Type.Optional(Type.Enum(['SUCCESS', 'FAIL'])),
});
