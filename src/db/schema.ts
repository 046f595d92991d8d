import type { Generated, SqlBool } from 'kysely';
import type { AnalysisTables } from './tables/analyses.js';
import type { CustomFieldTables } from './tables/custom-fields.js';
import type { GlossaryTables } from './tables/glossaries.js';
import type { HandoverFileTables } from './tables/handover-files.js';
import type { ImportSettingsTables } from './tables/import-settings.js';
import type { JobPreviewTables } from './tables/job-previews.js';
import type { LqaProfileTables } from './tables/lqa-profiles.js';
import type { QaRunTables } from './tables/qa-runs.js';
import type { QualityEvaluationTables } from './tables/quality-evaluation.js';
import type { MachineTranslationTables } from './tables/machine-translation.js';
import type { PricingTables } from './tables/pricing.js';
import type { ProjectTables } from './tables/projects.js';
import type { QuoteTables } from './tables/quotes.js';
import type { SegmentationRuleTables } from './tables/segmentation-rules.js';
import type { SetupRecordTables } from './tables/setup-records.js';
import type { SpellingTables } from './tables/spelling.js';
import type { TermBaseTables } from './tables/term-bases.js';
import type { TranslationMemoryTables } from './tables/translation-memories.js';
import type { VendorTables } from './tables/vendors.js';
import type { WorkflowStepTables } from './tables/workflow-steps.js';

/**
 * Table types, as the application sees them through Kysely's CamelCasePlugin
 * (columns are snake_case in the database).
 *
 * Conventions shared by every table (see docs/architecture.md):
 * - `id` is a numeric surrogate key, read as a string on both databases (PostgreSQL returns int8 as
 *   a string; the SQLite driver wrapper turns `id` and `*_id` columns into strings), so ids
 *   compare with `===` and go on the wire as they are.
 * - `uid` is a random URL-safe identifier, unique per table.
 * - Timestamps are ISO 8601 UTC strings (`2026-11-21T13:09:29.000Z`) on both databases, so that
 *   they compare and sort the same way everywhere.
 * - Booleans come back as 0/1 from SQLite and true/false from PostgreSQL: read them with `bool()`.
 */
export type Id = string;
export type Timestamp = string;

export interface OrganizationsTable {
  id: Generated<Id>;
  uid: string;
  name: string;
  createdAt: Timestamp;
  /** The installation's own organization, home of SYS_ADMIN users. */
  isSystem: Generated<SqlBool>;
  /** Authentication is restricted to SSO (description, "Legacy login rules"). */
  ssoOnly: Generated<SqlBool>;
  /** With ssoOnly: API-token (password) logins are refused too. */
  apiTokenSsoEnforced: Generated<SqlBool>;
  /** Most human users the organization may have; null = no limit. Bot users do not count. */
  seatLimit: number | null;
  /** Requests per minute for the whole organization; null = the configured default. */
  rateLimitPerMinute: number | null;
  /** The last project `internalId` given in the organization. */
  lastProjectInternalId: Generated<number>;
  /** The last translation memory `internalId` given in the organization. */
  lastTransMemoryInternalId: Generated<number>;
  /** The last term base `internalId` given in the organization. */
  lastTermBaseInternalId: Generated<number>;
  /** The last glossary `internalId` given in the organization. */
  lastGlossaryInternalId: Generated<number>;
  /** Business units exist only when the feature is enabled (description, "Behaviour of other operations" 2). */
  businessUnitsEnabled: Generated<SqlBool>;
}

export interface ClientsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  externalId: string | null;
  note: string | null;
  displayNoteInProject: Generated<SqlBool>;
  /** Price lists and net rate schemes are later records; null until then. */
  priceListId: Id | null;
  netRateSchemeId: Id | null;
  createdAt: Timestamp;
  createdById: Id | null;
}

export const USER_ROLES = ['SYS_ADMIN', 'ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface UsersTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  passwordHash: string | null;
  timezone: string;
  note: string | null;
  active: SqlBool;
  createdAt: Timestamp;
  createdById: Id | null;
  deletedAt: Timestamp | null;
  /** JSON: the role-specific fields of the spec (rights, locales, references). */
  roleSettings: Generated<string>;
  guestClientId: Id | null;
  isBot: Generated<SqlBool>;
  receiveNewsletter: Generated<SqlBool>;
  lastLoginAt: Timestamp | null;
  /** Tokens issued before this moment are refused ("invalidate all sessions"). */
  sessionsInvalidatedAt: Timestamp | null;
}

/** Tokens handed out by the login operations; only their SHA-256 hash is stored. */
export interface LoginTokensTable {
  id: Generated<Id>;
  tokenHash: string;
  userId: Id;
  organizationId: Id;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  kind: Generated<'login' | 'session'>;
  /** SHA-256 of the CSRF token a session's mutating requests must echo. */
  csrfTokenHash: string | null;
  /** Set by "login as another user": the ADMIN acting as this user. */
  impersonatorId: Id | null;
}

/** Personal API tokens (OpenTMS extension); only the SHA-256 is stored. */
export interface ApiTokensTable {
  id: Generated<Id>;
  uid: string;
  tokenHash: string;
  userId: Id;
  organizationId: Id;
  name: string;
  createdAt: Timestamp;
  expiresAt: Timestamp | null;
  lastUsedAt: Timestamp | null;
  revokedAt: Timestamp | null;
}

export interface ServiceAccountsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  clientId: string;
  clientSecretHash: string;
  /** JSON: [{ product, scopes: [...] }] */
  products: string;
  botUserId: Id;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** Keys that sign the token service's JWTs; the public halves are served as a JWKS. */
export interface SigningKeysTable {
  id: Generated<Id>;
  kid: string;
  algorithm: string;
  privateJwk: string;
  publicJwk: string;
  createdAt: Timestamp;
  retiredAt: Timestamp | null;
}

export interface LoginFailuresTable {
  /** Lower-cased user name as typed, whether or not such a user exists. */
  userName: string;
  failures: number;
  lastFailureAt: Timestamp;
  lockedUntil: Timestamp | null;
}

export interface LoginEventsTable {
  id: Generated<Id>;
  userId: Id;
  organizationId: Id;
  at: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface AsyncRequestsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  createdById: Id | null;
  action: string;
  parentId: Id | null;
  projectUid: string | null;
  projectName: string | null;
  callbackUrl: string | null;
  createdAt: Timestamp;
  finishedAt: Timestamp | null;
  /** JSON of AsyncResponseDto; null until finished. */
  response: string | null;
  /** What a long request has done of how much while it runs (migration 2026-11-29T1200); null = not reported. */
  progressDone: number | null;
  progressTotal: number | null;
}

export interface WebhooksTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string | null;
  url: string;
  /** JSON array of event names. */
  events: string;
  secretToken: string | null;
  /** Key of the X-OpenTMS-Signature HMAC. */
  signingSecret: string;
  hidden: SqlBool;
  status: 'ENABLED' | 'DISABLED';
  /** Calls in a row that failed for good; reset by a delivered call. */
  failedAttempts: number;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

/** One delivery of one event to one webhook (the outbox); replays are calls of their own. */
export interface WebhookCallsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  webhookId: Id;
  event: string;
  eventUid: string;
  parentUid: string | null;
  url: string;
  body: string;
  status: 'PENDING' | 'SUCCESS' | 'FAIL';
  attempts: number;
  forced: SqlBool;
  statusCode: number | null;
  errorMessage: string | null;
  createdAt: Timestamp;
  lastAttemptAt: Timestamp | null;
  deliveredAt: Timestamp | null;
}

/** The durable task queue (docs/async-and-webhooks.md, "Task queue"). */
export type TaskStatus = 'queued' | 'running' | 'done' | 'failed';

export interface TasksTable {
  id: Generated<Id>;
  /** Names the handler, e.g. `webhook.deliver`. */
  kind: string;
  /** JSON: the handler's input. */
  payload: string;
  organizationId: Id | null;
  /** Fairness lane: the organization's id, or 0 for the installation's own work. */
  lane: Id;
  status: TaskStatus;
  /** Claims so far (1 while the first attempt runs). */
  attempts: Generated<number>;
  /** Runs cut short without an outcome (worker died or lost the lease, thread crashed); 3 fail the task. */
  interruptions: Generated<number>;
  /** Null: the handler's maxAttempts. */
  maxAttempts: number | null;
  runAt: Timestamp;
  lockedBy: string | null;
  leaseUntil: Timestamp | null;
  lastError: string | null;
  asyncRequestId: Id | null;
  createdAt: Timestamp;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
}

/** When each lane was last served, as a counter: the smallest turn is served next. */
export interface TaskTurnsTable {
  lane: Id;
  turn: Id;
}

/** Every table. Tables of later modules are declared in ./tables/ by area and joined here. */
export interface DB
  extends
    SetupRecordTables,
    WorkflowStepTables,
    CustomFieldTables,
    VendorTables,
    ProjectTables,
    HandoverFileTables,
    TranslationMemoryTables,
    TermBaseTables,
    GlossaryTables,
    MachineTranslationTables,
    PricingTables,
    AnalysisTables,
    QuoteTables,
    SegmentationRuleTables,
    ImportSettingsTables,
    JobPreviewTables,
    LqaProfileTables,
    QaRunTables,
    SpellingTables,
    QualityEvaluationTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  loginTokens: LoginTokensTable;
  clients: ClientsTable;
  apiTokens: ApiTokensTable;
  serviceAccounts: ServiceAccountsTable;
  signingKeys: SigningKeysTable;
  loginFailures: LoginFailuresTable;
  loginEvents: LoginEventsTable;
  asyncRequests: AsyncRequestsTable;
  webhooks: WebhooksTable;
  webhookCalls: WebhookCallsTable;
  tasks: TasksTable;
  taskTurns: TaskTurnsTable;
}
