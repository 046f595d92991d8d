import { ApiError, define } from './api-error.js';
import type { CatalogueEntry, ErrorDefinition, ErrorDetail, ErrorStatus } from './api-error.js';

/**
 * The error catalogue of the TMS API: every `errorCode` a client can receive in the body
 * `{errorCode, errorDescription, errorDetails}`, with its HTTP status and its message. Code
 * raises errors only through it:
 *
 *     throw errors.NameAlreadyExists({ what: 'a client', name });
 *     throw apiError(rule.code, { field, reason });   // when the code is a value
 *
 * TypeScript rejects an unknown code and wrong or missing parameters. To add an error, add an
 * entry to the group it belongs to, with a comment saying when it is raised; routes that raise
 * it with a status their OpenAPI operation does not list yet declare it in `config.errors`
 * (docs/api-conventions.md, "Errors"). Codes never change once released: clients switch on them.
 *
 * The other error families of the product live beside this file: SCIM (./scim-errors.ts), the
 * token service (./oauth-errors.ts) and the codes of asynchronous requests and bulk results
 * (./outcome-codes.ts).
 */

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** What InvalidArguments and the other free-worded 400s take: the reason for people, the inputs for programs. */
interface Reasoned {
  reason: string;
  details?: ErrorDetail[];
}

/**
 * A broken rule of custom fields (src/domain/custom-fields): the domain phrases the reason and
 * names the input (`field`); `detail` is the short form for errorDetails (the reason by default).
 */
interface RuleViolation {
  field: string;
  reason: string;
  detail?: string;
}

const ruleViolation = define({
  status: 400,
  message: ({ reason }: RuleViolation) => reason,
  details: ({ field, reason, detail }) => [{ field, message: detail ?? reason }],
});

/** What UnsupportedMediaType tells the client to send instead, by operation kind. */
const EXPECTED_MEDIA = {
  octetStream: 'Send the file as application/octet-stream, named by a Content-Disposition header.',
  multipart: 'Send the files as multipart/form-data: `file` parts and an optional `json` part.',
  noteOrFile: 'Send a JSON body {"note": "…"} or the file as application/octet-stream named by Content-Disposition.',
} as const;

/**
 * The options NotSupportedYet explains one by one (a feature behind them is missing), with the
 * input errorDetails name; the others are listed by name.
 */
const LATER_OPTIONS = {
  preTranslate: {
    reason: 'preTranslate: pre-translation is not available in this installation yet; leave it out.',
    field: 'preTranslate',
    detail: 'not supported yet',
  },
  targetSegmentationRule: {
    reason:
      'targetSegmentationRule: cutting an uploaded translation with custom segmentation rules is not available in this installation yet; leave it out (the translation is cut with the default rules of the target language).',
    field: 'targetSegmentationRule',
    detail: 'not supported yet',
  },
  byDocumentPart: {
    reason: 'Splitting by document parts works only for PowerPoint files, which OpenTMS does not import yet.',
    field: 'byDocumentPart',
    detail: 'PowerPoint files only',
  },
} as const;

/** What JobImportNotFinished and JobImportFailed say, by what the client asked for. */
type ImportPendingParams =
  /** The segments of a job (reading or changing its content). */
  | { jobUid: string }
  /** The target file of the job (PUT …/targetFile). */
  | { targetFile: true }
  /** A new source for the jobs of these files (updateSource; only while importing). */
  | { filenames: readonly string[] };

type NotFoundParams =
  /**
   * A record (`what`: "User", "Vendor"), or several by uid, each named in errorDetails under
   * `field`; `reason` says why a record that exists is not the one asked for.
   */
  | { what: string; uids?: readonly string[]; field?: string; reason?: string }
  /** No route at this path (the 404 of the not-found handler). */
  | { method: string; path: string };

export const TMS_ERRORS = {
  // -------------------------------------------------------------------------------------------
  // The request itself: refused by the HTTP layer while reading it (src/http/errors.ts maps
  // Fastify's and Node's own errors here) or by the upload helpers (src/http/uploads.ts)
  // -------------------------------------------------------------------------------------------

  /** The body (or a JSON part: `part`) is declared JSON but is not valid JSON, or is empty. */
  InvalidJson: define({
    status: 400,
    message: ({ part, empty }: { part?: string; empty?: true }) =>
      part
        ? `${part} is not valid JSON.`
        : empty
          ? 'The request says its body is JSON, but the body is empty.'
          : 'The request body is not valid JSON.',
    details: ({ part }) => (part ? [{ field: part, message: 'is not valid JSON' }] : []),
  }),
  /**
   * An operation that needs a JSON body got none: no body, an empty one (a JSON Content-Type with
   * no bytes), or the JSON `null` (src/http/request-bodies.ts).
   */
  RequestBodyMissing: define({
    status: 400,
    message: 'The request has no body, but this operation needs a JSON body.',
    details: () => [{ field: 'body', message: 'is required', in: 'body' }],
  }),
  /** The Content-Length header does not match the body that arrived. */
  InvalidContentLength: define({ status: 400, message: 'The Content-Length header does not match the body.' }),
  /** The Content-Type header cannot be parsed. */
  InvalidContentType: define({ status: 400, message: 'The Content-Type header is not valid.' }),
  /** A body whose Content-Type the operation does not accept; upload operations say what to send (`expected`). */
  UnsupportedMediaType: define({
    status: 415,
    message: ({ expected }: { expected?: keyof typeof EXPECTED_MEDIA }) =>
      expected ? EXPECTED_MEDIA[expected] : 'The request body has a Content-Type this operation does not accept.',
  }),
  /** A body larger than OPENTMS_BODY_LIMIT_BYTES (uploads have their own limit: FileTooLarge). */
  PayloadTooLarge: define({ status: 413, message: 'The request body is larger than this server accepts.' }),
  /** An uploaded file larger than OPENTMS_UPLOAD_LIMIT_BYTES (octet-stream bodies and multipart file parts). */
  FileTooLarge: define({
    status: 413,
    message: ({ limitBytes }: { limitBytes: number }) => `The file is larger than the upload limit of ${limitBytes} bytes.`,
  }),
  /** More file parts in one multipart request than the operation takes (description, "Limits": 50). */
  TooManyFiles: define({
    status: 400,
    message: ({ max }: { max: number }) => `At most ${max} files may be sent in one request.`,
    details: ({ max }) => [{ field: 'file', message: `at most ${max} files` }],
  }),
  /** An octet-stream upload without a Content-Disposition header naming the file. */
  ContentDispositionMissing: define({
    status: 400,
    message: "Name the file in a Content-Disposition header: filename*=UTF-8''<file name>.",
    details: () => [{ field: 'Content-Disposition', message: 'is required and must carry filename* or filename' }],
  }),
  /** Any other request the HTTP layer refuses (a malformed request line or header, a cut-off multipart body). */
  BadRequest: define({ status: 400, message: ({ reason }: { reason: string }) => reason }),
  /** A path that is not a valid URL (a broken percent-encoding); refused before routing. */
  InvalidRequestPath: define({
    status: 400,
    message: ({ path }: { path: string }) => `The request path ${path} is not a valid URL (check its percent-encoding).`,
  }),
  /** A path parameter longer than the router takes (500 characters); refused before routing, as Fastify does with 414. */
  PathParameterTooLong: define({
    status: 414,
    message: ({ maxLength }: { maxLength: number }) => `A path parameter is longer than ${maxLength} characters.`,
  }),
  /** The client did not send the whole request within the server's request timeout. */
  RequestTimeout: define({ status: 408, message: 'The request was not received in time.' }),
  /** Request headers larger than Node's header limit; answered by the server's clientError handler. */
  RequestHeaderFieldsTooLarge: define({
    status: 431,
    message: ({ limitBytes }: { limitBytes: number }) => `The request headers are larger than this server accepts (${limitBytes} bytes).`,
  }),
  /** A known path called with a method it does not support; `Allow` lists those it does. */
  MethodNotAllowed: define({
    status: 405,
    message: ({ method, allow }: { method: string; allow: string }) => `${method} is not supported here; use ${allow}.`,
    headers: ({ allow }) => ({ allow }),
  }),
  /** Anything unexpected; logged with the request id, never explained to the client. */
  InternalError: define({ status: 500, message: 'Something went wrong on the server; it has been logged.' }),

  // -------------------------------------------------------------------------------------------
  // Authentication and access (401, 403)
  // -------------------------------------------------------------------------------------------

  /** No token, or one that is unknown, expired or revoked, on a route that is not public. */
  AuthUnauthorized: define({ status: 401, message: 'Authentication is required: send a valid token.' }),
  /** Login with a wrong user name or password: the same answer for both, so names cannot be probed. */
  AuthInvalidCredentials: define({ status: 401, message: 'Invalid user name or password.' }),
  /** A password or session login of an organization that requires single sign-on. */
  AuthSsoRequired: define({ status: 403, message: 'Your organization requires signing in through single sign-on (SSO).' }),
  /** A cookie-authenticated unsafe request without its session's CSRF token (`header`: the header to send). */
  CsrfTokenInvalid: define({
    status: 403,
    message: ({ header }: { header: string }) =>
      `A request authenticated by the session cookie must send the ${header} header of its login.`,
  }),
  /** A JWT whose scopes lack `read` (safe methods) or `write` (the others). */
  InsufficientScope: define({
    status: 403,
    message: ({ scope }: { scope: 'read' | 'write' }) => `The token does not grant the "${scope}" scope this operation needs.`,
  }),
  /** The caller's role, rights or relation to the record do not allow the operation; `reason` says which. */
  AccessDenied: define({
    status: 403,
    message: ({ reason }: { reason?: string }) => reason ?? 'You are not allowed to do this.',
  }),

  // -------------------------------------------------------------------------------------------
  // Invalid input (400)
  // -------------------------------------------------------------------------------------------

  /**
   * A parameter or body field breaks its schema (the error handler, from Fastify's validation) or
   * a rule of the operation; errorDetails name each field.
   */
  InvalidArguments: define({
    status: 400,
    message: ({ reason }: Reasoned) => reason,
    details: ({ details }) => details ?? [],
  }),
  /** An analysis request over more segments than one request may analyse (docs/analysis.md, "Limits"). */
  AnalysisTooLarge: define({
    status: 400,
    message: ({ segments, limit }: { segments: number; limit: number }) =>
      `The jobs hold ${segments} segments; one analysis request may analyse at most ${limit} segments. Analyse fewer jobs at a time.`,
    details: ({ limit }) => [{ field: 'jobs', message: `more than ${limit} segments` }],
  }),
  /** A quote whose price list has no price set for a language pair of the analysis (docs/analysis.md, "Quotes"). */
  NoPriceForLanguagePair: define({
    status: 400,
    message: ({ sourceLang, targetLang }: { sourceLang: string; targetLang: string }) =>
      `The price list has no prices for ${sourceLang} → ${targetLang}; add that language pair to the price list first.`,
    details: ({ sourceLang, targetLang }) => [{ field: 'priceList', message: `no price set for ${sourceLang} → ${targetLang}` }],
  }),
  /** Create quote v1 with a price list billed by the hour (description, version map: v1 does not support it). */
  HourBillingNotSupported: define({
    status: 400,
    message: 'Create quote v1 does not support price lists with the billing unit Hour; use POST /api2/v2/quotes.',
    details: () => [{ field: 'priceList', message: 'billing unit Hour' }],
  }),
  /** Email quotes naming a quote without a provider, or whose provider has no email address (description, "Behaviour of other operations" 14). */
  QuoteWithoutProvider: define({
    status: 400,
    message: ({ quoteUid, noEmail }: { quoteUid: string; noEmail?: boolean }) =>
      noEmail
        ? `The provider of quote ${quoteUid} has no email address; no quote was emailed.`
        : `Quote ${quoteUid} has no provider; every quote to email needs one. No quote was emailed.`,
    details: ({ noEmail }) => [{ field: 'quotes', message: noEmail ? 'provider without email address' : 'quote without provider' }],
  }),
  /** Email operations of an installation without a mail server (OPENTMS_SMTP_URL unset; docs/analysis.md, "Quotes"). */
  MailNotConfigured: define({
    status: 400,
    message: 'This installation has no mail server configured (OPENTMS_SMTP_URL), so it cannot send email.',
  }),
  /**
   * Removing a language from a term base that holds terms or is used by a project or template
   * (description, "Behaviour of other operations" 5; docs/terminology.md, "Records").
   */
  TermBaseInvalidInput: define({
    status: 400,
    message: ({ langs, reason }: { langs: readonly string[]; reason: 'terms' | 'assigned' }) =>
      `The languages ${langs.join(', ')} cannot be removed: the term base ${
        reason === 'terms' ? 'holds terms' : 'is used by a project or project template'
      }. A language can be removed only from a term base without terms that no project or template uses.`,
    details: ({ langs }) => [{ field: 'langs', message: `cannot remove ${langs.join(', ')}` }],
  }),
  /**
   * Editing a glossary without some of its languages: languages can only be added (the published
   * updateGlossary; docs/terminology.md, "Glossaries (built)").
   */
  GlossaryLanguagesRemoved: define({
    status: 400,
    message: ({ langs }: { langs: readonly string[] }) =>
      `The languages ${langs.join(', ')} cannot be removed from the glossary: a glossary's languages can only be added. Send all of its languages and the new ones.`,
    details: ({ langs }) => [{ field: 'langs', message: `cannot remove ${langs.join(', ')}` }],
  }),
  /** Creating MT settings of an engine type this installation cannot use (docs/machine-translation.md, "Engines"). */
  MtEngineNotAvailable: define({
    status: 400,
    message: ({ type, reason }: { type: string; reason: string }) =>
      `The ${type} engine is not available in this installation (${reason}). Use an available type, such as Apertium.`,
    details: () => [{ field: 'type', message: 'engine not available' }],
  }),
  /** MT asked for a language pair the engine of the settings does not have. */
  MtLanguagePairNotSupported: define({
    status: 400,
    message: ({ name, sourceLang, targetLang }: { name: string; sourceLang: string; targetLang: string }) =>
      `The machine translation engine of "${name}" cannot translate from ${sourceLang} to ${targetLang}.`,
    details: ({ sourceLang, targetLang }) => [{ field: 'to', message: `no ${sourceLang} → ${targetLang} pair` }],
  }),
  /** The engine could not be reached, timed out or kept refusing after its retries (docs/machine-translation.md, "Failures"); nothing was changed. */
  MachineTranslationFailed: define({
    status: 502,
    message: ({ name, reason }: { name: string; reason: string }) =>
      `The machine translation engine of "${name}" did not translate: ${reason} Nothing was changed; try again later.`,
  }),
  /** Engine credentials sealed under another key than this installation's (OPENTMS_SECRET_KEY or <dataDir>/secret.key). */
  MtCredentialsUnreadable: define({
    status: 400,
    message: ({ name }: { name: string }) =>
      `The credentials of the MT settings "${name}" cannot be read with this installation's key; an administrator must enter them again.`,
  }),
  /** MT for a job whose project has no MT settings for the job's target language. */
  MtSettingsNotAssigned: define({
    status: 400,
    message: ({ targetLang }: { targetLang: string }) =>
      `The project has no machine translation settings for ${targetLang}: set them with PUT /api2/v1/projects/{projectUid}/mtSettings.`,
  }),
  /** humanTranslate without a human-translation provider (docs/machine-translation.md, "Human translation"). */
  HumanTranslationNotConfigured: define({
    status: 400,
    message:
      'No human translation provider (Gengo, Unbabel) is configured in this installation, so the jobs cannot be sent for human translation. Nothing was sent.',
    details: () => [{ field: 'humanTranslateSettings', message: 'no human translation provider configured' }],
  }),
  /**
   * An uploaded segmentation rules file that is not a usable SRX file: malformed XML, not SRX, a
   * limit, a language map naming no language rule or a language pattern that does not compile
   * (createSegmentationRule; docs/segmentation-rules.md). Nothing is stored.
   */
  SrxFileInvalid: define({
    status: 400,
    message: ({ reason }: { reason: string }) => `The file is not a usable SRX 2.0 file: ${reason}. Nothing was stored.`,
    details: ({ reason }) => [{ field: 'file', message: reason }],
  }),
  /**
   * A rule of an uploaded SRX file whose Java regular expression the segmentation engine cannot
   * translate or compile, named by its language rule, its 1-based index there and the expression
   * (createSegmentationRule; docs/segmentation-rules.md, "SRX files"). Nothing is stored.
   */
  SegmentationRuleInvalid: define({
    status: 400,
    message: ({
      languageRuleName,
      ruleIndex,
      side,
      expression,
      reason,
    }: {
      languageRuleName: string;
      ruleIndex: number;
      side: 'beforebreak' | 'afterbreak';
      expression: string;
      reason: string;
    }) =>
      `Rule ${ruleIndex} of the language rule "${languageRuleName}" cannot be used: <${side}>${expression}</${side}>: ${reason}. Nothing was stored.`,
    details: ({ languageRuleName, ruleIndex, side }) => [
      { field: 'file', message: `languagerule "${languageRuleName}", rule ${ruleIndex}, ${side}` },
    ],
  }),
  /**
   * A spell check or suggestion for a language that no installed Hunspell dictionary serves
   * (docs/spelling.md): its texts are not checked, and never reported as correct either.
   */
  SpellingDictionaryMissing: define({
    status: 400,
    message: ({ lang }: { lang: string }) =>
      `No spelling dictionary is installed for "${lang}": its texts cannot be checked (they are not reported as correct). The administrator can install the language's Debian package hunspell-<language>.`,
    details: ({ lang }) => [{ field: 'lang', message: `no spelling dictionary for "${lang}"` }],
  }),
  /** A language code not on the supported list (GET /api2/v1/languages). */
  UnsupportedLanguage: define({
    status: 400,
    message: ({ field, code }: { field: string; code: string }) =>
      `"${code}" in ${field} is not a supported language code (see GET /api2/v1/languages).`,
    details: ({ field, code }) => [{ field, message: `unsupported language code "${code}"` }],
  }),
  /**
   * A body references a record (client, workflow step, vendor, ...) that does not exist in the
   * caller's organization; `keyName` is how it was referenced (uid unless said otherwise).
   */
  ReferenceNotFound: define({
    status: 400,
    message: ({ what, key, keyName = 'uid' }: { what: string; key: string; keyName?: 'uid' | 'id' | 'name'; field?: string }) =>
      `No ${what} with ${keyName} ${key} exists in this organization.`,
    details: ({ key, keyName = 'uid', field }) => (field ? [{ field, message: `unknown ${keyName} "${key}"` }] : []),
  }),
  /**
   * A callback or webhook URL the outbound policy refuses (scheme, credentials, private address),
   * raised by the request that would store it (webhooks, the callbackUrl of asynchronous
   * operations), so that no refused URL is stored and retried (docs/outbound-http.md).
   */
  InvalidCallbackUrl: define({
    status: 400,
    message: ({ field, reason }: { field: string; reason: string }) => `Invalid ${field}: ${reason}`,
    details: ({ field, reason }) => [{ field, message: reason }],
  }),
  /** A profile edit that sets a new password without the right current one. */
  CurrentPasswordWrong: define({
    status: 400,
    message: 'To set a new password, send your current password in currentPassword.',
    details: () => [{ field: 'currentPassword', message: 'does not match' }],
  }),
  /** A change to the bot user of a service account, which changes only through its account. */
  BotUserReadOnly: define({
    status: 400,
    message: 'This is the bot user of a service account: it changes only through its service account.',
  }),
  /** Deactivating, demoting or deleting the organization's last active ADMIN. */
  LastAdmin: define({ status: 400, message: 'The organization must keep at least one active ADMIN.' }),
  /**
   * Deleting import settings something still uses: the organization's default import settings,
   * which new projects start from (deleteImportSettings; docs/import-settings-and-file-types.md).
   */
  ImportSettingsInUse: define({
    status: 400,
    message: ({ name, usedAs }: { name: string; usedAs: string }) => `The import settings "${name}" are ${usedAs}; they cannot be deleted.`,
  }),
  /**
   * Deleting an LQA profile that is the organization's default or is still assigned to a project's
   * or a project template's workflow step (description, "Behaviour of other operations" 7;
   * deleteLqaProfile, docs/lqa-profiles.md).
   */
  LqaProfileInUse: define({
    status: 400,
    message: ({ name, usedAs }: { name: string; usedAs: string }) => `The LQA profile "${name}" is ${usedAs}; it cannot be deleted.`,
  }),
  /** Deleting the organization's last workflow step. */
  LastWorkflowStep: define({ status: 400, message: 'The organization must keep at least one workflow step.' }),
  /** A custom field edit that sends another type. */
  TypeCannotChange: define({
    status: 400,
    message: ({ type }: { type: string }) => `The type of a custom field cannot change (it is ${type}).`,
    details: () => [{ field: 'type', message: 'cannot change' }],
  }),
  /** Replaying webhook calls with filters that match none. */
  NothingToReplay: define({ status: 400, message: 'No webhook call matches the filters.' }),
  /** A test delivery of an event the webhook does not include (description, "Webhooks" 1). */
  WebhookEventNotIncluded: define({
    status: 400,
    message: ({ event }: { event: string; included: readonly string[] }) => `The webhook does not include the event "${event}".`,
    details: ({ included }) => [{ field: 'event', message: `not one of ${included.join(', ')}` }],
  }),
  /** Linking a vendor with a token no organization has. */
  InvalidVendorToken: define({
    status: 400,
    message: 'No organization has this vendor token.',
    details: () => [{ field: 'vendorToken', message: 'unknown token' }],
  }),
  /** Linking an organization as its own vendor. */
  CannotLinkOwnOrganization: define({
    status: 400,
    message: 'An organization cannot be its own vendor.',
    details: () => [{ field: 'vendorToken', message: "is your organization's own token" }],
  }),

  // -------------------------------------------------------------------------------------------
  // Custom field rules (400): raised by src/domain/custom-fields, which phrases the reason
  // -------------------------------------------------------------------------------------------

  /** Options on a field that is not SINGLE_SELECT or MULTI_SELECT, or selected options for one that takes a value. */
  OptionsNotAllowed: ruleViolation,
  /** A select field without options. */
  OptionsRequired: ruleViolation,
  /** More options than a field may have. */
  TooManyOptions: ruleViolation,
  /** An option value that is blank or too long. */
  InvalidOptionValue: ruleViolation,
  /** Two options of a field with the same value, ignoring case. */
  DuplicateOptionValue: ruleViolation,
  /** An option uid that is not an option of the field. */
  OptionNotFound: ruleViolation,
  /** The same option named twice, or in two lists of one edit. */
  ConflictingOptionEdits: ruleViolation,
  /** The same option selected twice. */
  DuplicateSelectedOption: ruleViolation,
  /** A deprecated option newly selected on a record. */
  OptionDeprecated: ruleViolation,
  /** More than one option for a SINGLE_SELECT field. */
  TooManySelectedOptions: ruleViolation,
  /** A value for a select field, or for a type that takes none. */
  ValueNotAllowed: ruleViolation,
  /** A value longer than a field's values may be. */
  ValueTooLong: ruleViolation,
  /** A NUMBER field's value that is not a number. */
  InvalidNumber: ruleViolation,
  /** A URL field's value that is not an absolute http(s) URL. */
  InvalidUrl: ruleViolation,
  /** A DATE field's value that is not an ISO 8601 date-time with a time zone. */
  InvalidDate: ruleViolation,
  /** No value for a field that is required on the record. */
  ValueRequired: ruleViolation,

  // -------------------------------------------------------------------------------------------
  // Not found (404)
  // -------------------------------------------------------------------------------------------

  /**
   * A record that does not exist or belongs to another organization (both answer the same), or
   * a path no operation answers.
   */
  ResourceNotFound: define({
    status: 404,
    message: (params: NotFoundParams) => {
      if ('path' in params) return `There is no operation at ${params.method} ${params.path}.`;
      if (params.uids) return `${params.what} not found: ${params.uids.join(', ')}.`;
      return params.reason ? `${params.what} not found: ${params.reason}.` : `${params.what} not found.`;
    },
    details: (params) =>
      'uids' in params && params.uids && params.field
        ? params.uids.map((uid) => ({ field: params.field, message: `unknown uid "${uid}"` }))
        : [],
  }),

  // -------------------------------------------------------------------------------------------
  // Conflicts (409)
  // -------------------------------------------------------------------------------------------

  /** A name that must be unique in the organization is taken (`what`: "a client", "an additional workflow step"). */
  NameAlreadyExists: define({
    status: 409,
    message: ({ what, name }: { what: string; name: string }) =>
      `${capitalized(what)} named "${name}" already exists in this organization.`,
    details: () => [{ field: 'name', message: 'already exists' }],
  }),
  /** A user name taken by any user of any organization (user names are global); `field` is where it was sent. */
  UserNameAlreadyExists: define({
    status: 409,
    message: ({ userName }: { userName: string; field?: string }) => `The user name "${userName}" is taken.`,
    details: ({ field = 'userName' }) => [{ field, message: 'already exists' }],
  }),
  /** A workflow step abbreviation taken in the organization. */
  AbbreviationAlreadyExists: define({
    status: 409,
    message: ({ abbr }: { abbr: string }) => `A workflow step abbreviated "${abbr}" already exists in this organization.`,
    details: () => [{ field: 'abbr', message: 'already exists' }],
  }),
  /** Linking a vendor organization that is already linked. */
  VendorAlreadyExists: define({
    status: 409,
    message: ({ name }: { name: string }) => `The organization "${name}" is already one of your vendors.`,
    details: () => [{ field: 'vendorToken', message: 'already linked' }],
  }),
  /** Deleting a workflow step that projects or project templates use. */
  WorkflowStepInUse: define({
    status: 409,
    message: ({ name }: { name: string }) => `The workflow step "${name}" is used by projects or project templates; it cannot be deleted.`,
  }),
  /** A quote of an analysis that has not finished (still running, or failed): it has no figures to price. */
  AnalysisNotFinished: define({
    status: 409,
    message: ({ analysisUid, status }: { analysisUid: string; status: string }) =>
      status === 'ERROR'
        ? `The analysis ${analysisUid} failed; recalculate it before making a quote of it.`
        : `The analysis ${analysisUid} is not finished yet (status ${status}); make the quote once it is.`,
    details: () => [{ field: 'analyse', message: 'analysis not finished' }],
  }),
  /** A stored upload that a concurrent delete removed before its record was written. */
  UploadRaced: define({ status: 409, message: 'The file was removed while it was being stored; send it again.' }),

  // -------------------------------------------------------------------------------------------
  // Limits (403, 429)
  // -------------------------------------------------------------------------------------------

  /** Creating or activating a user when the organization uses all of its seats. */
  SeatLimitReached: define({
    status: 403,
    message: ({ seats }: { seats: number }) => `The organization uses all of its ${seats} seats; deactivate or delete a user first.`,
  }),
  /** Business unit operations of an organization that has not enabled business units. */
  BusinessUnitsDisabled: define({ status: 403, message: 'Business units are not enabled for this organization.' }),
  /** A rate limit is exhausted (docs/rate-limits.md); Retry-After and the X-Rate-Limit-* headers say when to retry. */
  TooManyRequests: define({
    status: 429,
    message: ({ retryAfterSeconds }: { retryAfterSeconds: number; rateHeaders: Record<string, string> }) =>
      `Too many requests; retry in ${retryAfterSeconds} s.`,
    headers: ({ retryAfterSeconds, rateHeaders }) => ({ ...rateHeaders, 'retry-after': String(retryAfterSeconds) }),
  }),
  /** Too many failed logins for one user name (docs/identity-and-access.md). */
  AuthTooManyAttempts: define({
    status: 429,
    message: ({ retryAfterSeconds }: { retryAfterSeconds: number }) =>
      `Too many failed logins for this user name; try again in ${retryAfterSeconds} seconds.`,
    headers: ({ retryAfterSeconds }) => ({ 'retry-after': String(retryAfterSeconds) }),
  }),
  /** An operation that would start an asynchronous request while the organization has its most pending ones. */
  TooManyPendingRequests: define({
    status: 429,
    message: ({ pending, limit }: { pending: number; limit: number }) =>
      `The organization has ${pending} pending asynchronous requests, the most it may have (${limit}); wait for some to finish.`,
    headers: () => ({ 'retry-after': '10' }),
  }),

  // -------------------------------------------------------------------------------------------
  // Translation workflow (projects, jobs, files): raised by src/modules/translation-workflow
  // -------------------------------------------------------------------------------------------

  /** An option of an operation this installation does not offer yet; the client should leave it out. */
  NotSupportedYet: define({
    status: 400,
    message: (params: { fields: readonly string[] } | { option: keyof typeof LATER_OPTIONS }) =>
      'option' in params
        ? LATER_OPTIONS[params.option].reason
        : `${params.fields.join(', ')}: not available in this installation yet; leave ${plural(params.fields.length, 'it', 'them')} out.`,
    details: (params) =>
      'option' in params
        ? [{ field: LATER_OPTIONS[params.option].field, message: LATER_OPTIONS[params.option].detail }]
        : params.fields.map((field) => ({ field, message: 'not supported yet' })),
  }),
  /** The mail server refused a message or could not be reached (src/outbound/mail.ts); `sent` messages went out before. */
  MailDeliveryFailed: define({
    status: 500,
    message: ({ sent, total }: { sent: number; total: number }) =>
      `The mail server did not accept the message; ${sent} of ${total} ${plural(total, 'message was', 'messages were')} sent. Try again later.`,
  }),
  /** A form of an operation this installation does not implement (501); the reason says what works instead. */
  NotImplemented: define({ status: 501, message: ({ reason }: { reason: string }) => reason }),
  /** Creating a job from a URL instead of a sent file. */
  RemoteUploadNotSupported: define({
    status: 400,
    message: 'Uploading a file from a URL is not supported yet: send the file as multipart/form-data or application/octet-stream.',
    details: () => [{ field: 'url', message: 'fetching files from URLs is not supported yet' }],
  }),
  /** Target languages that are not target languages of the project. */
  InvalidTargetLanguage: define({
    status: 400,
    message: ({ langs }: { langs: readonly string[] }) => `Not a target language of the project: ${langs.join(', ')}.`,
    details: ({ langs }) => langs.map((lang) => ({ field: 'targetLangs', message: `"${lang}" is not a target language of the project` })),
  }),
  /** Creating (or splitting into) more jobs than a project may hold. */
  JobLimitExceeded: define({
    status: 400,
    message: ({ existing, adding, limit }: { existing: number; adding: number; limit: number }) =>
      `The project has ${existing} jobs; ${adding} more would pass the limit of ${limit} jobs per project.`,
  }),
  /** Cloning more jobs than the project may hold. */
  ProjectJobLimitExceeded: define({
    status: 400,
    message: ({ existing, adding, limit }: { existing: number; adding: number; limit: number }) =>
      `The project has ${existing} jobs; cloning would add ${adding}, past its limit of ${limit}.`,
  }),
  /** Cloning jobs in a project with only one target language. */
  CloneNeedsTargetLanguages: define({
    status: 400,
    message: 'Jobs can be cloned only in a project with more than one target language.',
  }),
  /** Cloning jobs of multilingual files. */
  MultilingualJobCannotBeCloned: define({
    status: 400,
    message: ({ jobUids }: { jobUids: readonly string[] }) => `Jobs of multilingual files cannot be cloned: ${jobUids.join(', ')}.`,
    details: ({ jobUids }) => jobUids.map((uid) => ({ field: 'jobPartTargetLangs', message: `job ${uid} is of a multilingual file` })),
  }),
  /** Setting a job's status to the one it has. */
  JobStatusUnchanged: define({
    status: 400,
    message: ({ status }: { status: string }) => `The job already has the status ${status}.`,
  }),
  /** A status change the job's provider may not make. */
  JobStatusChangeNotAllowed: define({
    status: 400,
    message: ({ from, to }: { from: string; to: string }) => `A job's provider cannot move it from ${from} to ${to}.`,
  }),
  /** Reading or changing the segments, asking for the target file or updating the source of a job whose file is still being imported. */
  JobImportNotFinished: define({
    status: 409,
    message: (params: ImportPendingParams) =>
      'jobUid' in params
        ? `Job ${params.jobUid} is still being imported; try again once its import finished.`
        : 'filenames' in params
          ? `${params.filenames.join(', ')}: still being imported; update the source once the import finished.`
          : 'The job’s file is still being imported; ask for the target file once its import finished.',
  }),
  /** Reading or changing the segments, or asking for the target file, of a job whose file could not be imported. */
  JobImportFailed: define({
    status: 400,
    message: (params: Exclude<ImportPendingParams, { filenames: readonly string[] }>) =>
      'jobUid' in params
        ? `Job ${params.jobUid} could not be imported, so it has no segments.`
        : 'The job’s file could not be imported, so it has no target file.',
  }),
  /** Splitting a job whose file is not imported. */
  JobNotImported: define({ status: 400, message: 'A job can be split once its file is imported.' }),
  /** A bilingual file (MXLIFF, bilingual DOCX) that cannot be read: not XML, not MXLIFF, a trans-unit id that is not `<job uid>:<index>`. */
  BilingualFileUnreadable: define({
    status: 400,
    message: (params: { reason: string }) => `The bilingual file cannot be read: ${params.reason}.`,
  }),
  /** A bilingual file that does not fit the jobs it names: another job, a changed source, another target language. Nothing is changed. */
  BilingualFileMismatch: define({
    status: 400,
    message: (params: { reason: string }) => `The bilingual file does not match its job: ${params.reason}. Nothing was changed.`,
  }),
  /**
   * Moving a job to COMPLETED or DELIVERED while its project's QA settings have `strictJobStatus`
   * on and a fresh QA run of the job finds warnings nobody ignored (docs/qa-runs-and-warnings.md,
   * "Delivery gate"). errorDetails list them (at most 50): segment, warning type.
   */
  QaWarningsUnresolved: define({
    status: 400,
    message: (p: { jobUid: string; status: string; count: number; warnings: { segment: string; type: string }[] }) =>
      `Job ${p.jobUid} cannot be set to ${p.status}: QA finds ${p.count} unresolved ${plural(p.count, 'warning', 'warnings')}. Fix or ignore ${plural(p.count, 'it', 'them')} first.`,
    details: ({ jobUid, warnings }) =>
      warnings
        .slice(0, 50)
        .map((w) => ({ field: 'status', message: `${w.type} on segment ${w.segment}`, jobUid, segment: w.segment, type: w.type })),
  }),
  /** Ignoring a QA warning whose check the settings make not ignorable, or one that is not a warning of the segment's current target. */
  QaWarningNotIgnorable: define({
    status: 400,
    message: (p: { warningId: string; segment: string; reason: string }) =>
      `Warning ${p.warningId} of segment ${p.segment} cannot be ignored: ${p.reason}.`,
    details: ({ warningId, segment, reason }) => [{ field: 'warnings', message: reason, warningId, segment }],
  }),
  /**
   * A QA run that did not finish within its time limit (QA_RUN_TIME_LIMIT_MS of the quality-assurance
   * module): with linear checks only a regular expression rule of the QA settings that backtracks
   * without end gets there. Its thread was stopped; nothing was stored.
   */
  QaRunTimedOut: define({
    status: 400,
    message: ({ jobUid, seconds }: { jobUid: string; seconds: number }) =>
      `QA of job ${jobUid} did not finish within ${seconds} s and was stopped: a regular expression rule of the project's QA settings probably backtracks without end (nested or overlapping repetition such as (a|a)*). Simplify the rules and run QA again.`,
    details: () => [{ field: 'regexp', message: 'a rule may backtrack without end' }],
  }),
  /** Saving the target of a locked segment (runQaAndSaveV4); nothing is saved. */
  SegmentLocked: define({
    status: 400,
    message: ({ segment }: { segment: string }) => `Segment ${segment} is locked: its target cannot be changed.`,
    details: ({ segment }) => [{ field: 'segmentId', message: 'locked', segment }],
  }),
  /** A job that was split or changed while an operation on it ran. */
  JobChanged: define({
    status: 409,
    message: ({ jobUid }: { jobUid: string }) => `Job ${jobUid} was split or changed meanwhile; read it again and retry.`,
  }),
  /**
   * Downloading an analysis whose figures are not there: it is still being computed (its async
   * request has not finished), or its computation failed (`reason`: the task's error).
   */
  AnalysisNotReady: define({
    status: 409,
    message: ({ failed, reason }: { failed?: boolean; reason?: string | null }) =>
      failed
        ? `The analysis could not be computed${reason ? ` (${reason})` : ''}; recalculate it, then download it.`
        : 'The analysis is still being computed; download it once its async request has finished.',
  }),
  /** Downloading a target file that is still being built. */
  TargetFileNotReady: define({
    status: 409,
    message: 'The target file is still being built; wait until its async request has finished.',
  }),
  /** Downloading a target file whose build failed (the async request's errorDesc says why). */
  TargetFileFailed: define({
    status: 409,
    message: ({ reason }: { reason?: string }) => reason ?? 'The target file could not be built; ask for a new one.',
  }),
  /**
   * A job preview this installation cannot make (docs/previews.md): an Office document while
   * LibreOffice is not installed, or a document larger than the preview limit.
   */
  PreviewNotAvailable: define({
    status: 501,
    message: (params: { libreOfficeMissing: true } | { limitBytes: number }) =>
      'libreOfficeMissing' in params
        ? 'Preview not available: LibreOffice is not installed, so Office documents cannot be previewed. Download the target file instead.'
        : `Preview not available: the translated document is larger than the preview limit of ${params.limitBytes} bytes. Download the target file instead.`,
  }),
  /** Converting a job's document for its preview failed or took too long (LibreOffice; `reason` says how). */
  PreviewFailed: define({
    status: 500,
    message: ({ reason }: { reason: string }) => `The preview could not be made: ${reason}.`,
  }),
  /** An uploaded job preview package that is not a usable ZIP: not a ZIP, an unsafe entry name, past a limit. Nothing is stored. */
  PreviewPackageInvalid: define({
    status: 400,
    message: ({ reason }: { reason: string }) => `The preview package cannot be used: ${reason}. Nothing was stored.`,
    details: ({ reason }) => [{ field: 'file', message: reason }],
  }),
  /** Downloading a target file a second time: each async request id is good for one download. */
  TargetFileAlreadyDownloaded: define({
    status: 410,
    message: 'This target file was already downloaded: each async request id can be used once. Ask for a new target file.',
  }),
  /** Handing over a file in a project whose fileHandover setting is off. */
  FileHandoverDisabled: define({
    status: 400,
    message: 'File handover is off for this project: turn on the project’s fileHandover setting first.',
    details: () => [{ field: 'fileHandover', message: 'is false' }],
  }),
  /** Updating a job's source or target with a .zip file. */
  ZipNotAllowed: define({
    status: 400,
    message: 'A .zip file cannot update a job; send the file itself.',
    details: () => [{ field: 'Content-Disposition', message: 'must not be a .zip file' }],
  }),
  /** Updating the source of jobs that are not of the first workflow step. */
  JobNotInFirstWorkflowStep: define<{ jobUids: readonly string[] }>({
    status: 400,
    message: 'Name the jobs of the first workflow step; the later steps of the same file and language are updated with them.',
    details: ({ jobUids }) => jobUids.map((uid) => ({ field: 'jobs', message: `job ${uid}` })),
  }),
  /** Updating the source or target of a split job. */
  JobIsSplit: define({
    status: 400,
    message: ({ file }: { file: 'source' | 'translated'; jobUids: readonly string[] }) =>
      `A split job cannot take a ${file === 'source' ? 'new source' : 'translated'} file.`,
    details: ({ jobUids }) => jobUids.map((uid) => ({ field: 'jobs', message: `job ${uid}` })),
  }),
  /** Updating the source of jobs whose workflow has a step in a final status. */
  JobInFinalStatus: define<{ jobUids: readonly string[] }>({
    status: 400,
    message: 'A job whose workflow has a step in a final status (DELIVERED, COMPLETED, CANCELLED) cannot take a new source file.',
    details: ({ jobUids }) => jobUids.map((uid) => ({ field: 'jobs', message: `job ${uid}` })),
  }),
  /** Updating the target of a job of a bilingual format, which carries its translations itself. */
  UpdateTargetNotAllowed: define({
    status: 400,
    message: ({ extension }: { extension: string }) =>
      `Jobs of .${extension} files do not take updateTarget (bilingual formats carry their translations themselves).`,
    details: ({ extension }) => [{ field: 'jobs', message: `jobs of .${extension} files do not take updateTarget` }],
  }),
  /** A translated file whose extension is not the original file's. */
  FileExtensionMismatch: define({
    status: 400,
    message: ({ expected, got }: { expected: string; got: string }) =>
      `The translated file must have the original's extension (.${expected || 'none'}), not .${got || 'none'}.`,
    details: ({ expected }) => [{ field: 'Content-Disposition', message: `must have the extension .${expected || 'none'}` }],
  }),
  /** Adding reference files with neither a file nor a note. */
  FileOrNoteRequired: define({
    status: 400,
    message: 'Send at least one file or a note.',
    details: () => [{ field: 'file', message: 'send a file part or a json part with a note' }],
  }),
  /** A custom field instance uid that is not an instance of the record. */
  InstanceNotFound: define({
    status: 400,
    message: ({ field, uid }: { field: string; uid: string }) => `${field}: ${uid} is not a custom field instance of this record.`,
    details: ({ field, uid }) => [{ field, message: `unknown instance "${uid}"` }],
  }),
  /** The same custom field instance named twice in one edit. */
  ConflictingInstanceEdits: define({
    status: 400,
    message: ({ field, uid }: { field: string; uid: string }) => `${field}: the instance ${uid} is named twice.`,
    details: ({ field }) => [{ field, message: 'named twice' }],
  }),
  /** Adding a value of a custom field the record already has a value of. */
  CustomFieldAlreadySet: define({
    status: 400,
    message: ({ field, fieldName }: { field: string; fieldName: string; instanceUid: string }) =>
      `${field}: the record already has a value of the field "${fieldName}"; edit that instance instead.`,
    details: ({ field, instanceUid }) => [{ field: `${field}.customField`, message: `already set (instance ${instanceUid})` }],
  }),
  /** The same custom field given twice in one list. */
  DuplicateCustomField: define({
    status: 400,
    message: ({ field, fieldUid }: { field: string; fieldUid: string }) => `${field}: the field ${fieldUid} is given twice.`,
    details: ({ field }) => [{ field: `${field}.customField`, message: 'given twice' }],
  }),
} as const;

type Catalogue = typeof TMS_ERRORS;

/** Every error code of the TMS API. */
export type ErrorCode = keyof Catalogue;

/** The named parameters the entry `C` renders its message from (`void`: none). */
export type ErrorParams<C extends ErrorCode> = Catalogue[C] extends ErrorDefinition<infer P> ? P : never;

/** The arguments that raise `C`: none, optional parameters, or required ones. */
export type ErrorArgs<C extends ErrorCode> = [ErrorParams<C>] extends [void]
  ? []
  : object extends ErrorParams<C>
    ? [params?: ErrorParams<C>]
    : [params: ErrorParams<C>];

/** The codes of the custom field rules: src/domain/custom-fields raises them with a RuleViolation. */
export const CUSTOM_FIELD_RULE_CODES = [
  'OptionsNotAllowed',
  'OptionsRequired',
  'TooManyOptions',
  'InvalidOptionValue',
  'DuplicateOptionValue',
  'OptionNotFound',
  'ConflictingOptionEdits',
  'DuplicateSelectedOption',
  'OptionDeprecated',
  'TooManySelectedOptions',
  'ValueNotAllowed',
  'ValueTooLong',
  'InvalidNumber',
  'InvalidUrl',
  'InvalidDate',
  'ValueRequired',
] as const satisfies readonly ErrorCode[];
export type CustomFieldRuleCode = (typeof CUSTOM_FIELD_RULE_CODES)[number];

/** Whether `code` is the code of a custom field rule (an error that takes a RuleViolation). */
export function isCustomFieldRuleCode(code: string): code is CustomFieldRuleCode {
  return (CUSTOM_FIELD_RULE_CODES as readonly string[]).includes(code);
}

export const ERROR_CODES = Object.keys(TMS_ERRORS) as ErrorCode[];

const ENTRIES = new Map<string, CatalogueEntry<never>>(
  ERROR_CODES.map((code) => [code, { ...(TMS_ERRORS[code] as ErrorDefinition<never>), code } as CatalogueEntry<never>]),
);

export function isErrorCode(code: string): code is ErrorCode {
  return ENTRIES.has(code);
}

/** The HTTP status of a code. */
export function statusOf(code: ErrorCode): ErrorStatus {
  return TMS_ERRORS[code].status;
}

/** Raises `code` with its parameters; the form for a code held in a variable (otherwise use `errors`). */
export function apiError<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): ApiError {
  return new ApiError(ENTRIES.get(code)!, args[0]);
}

/** One function per code: `throw errors.ResourceNotFound({ what: 'Vendor' })`. */
export const errors = Object.freeze(
  Object.fromEntries(ERROR_CODES.map((code) => [code, (params?: unknown) => new ApiError(ENTRIES.get(code)!, params)])),
) as { readonly [C in ErrorCode]: (...args: ErrorArgs<C>) => ApiError };
