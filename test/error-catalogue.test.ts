import { describe, expect, it } from 'vitest';
import {
  ASYNC_FAILURES,
  ApiError,
  CUSTOM_FIELD_RULE_CODES,
  ERROR_CODES,
  OAUTH_ERRORS,
  SCIM_ERRORS,
  STATUS,
  TMS_ERRORS,
  apiError,
  asyncFailure,
  errors,
  isCustomFieldRuleCode,
  oauthErrors,
  oauthRefusal,
  scimErrors,
} from '../src/errors/index.js';
import type { AsyncFailureCode, ErrorArgs, ErrorCode } from '../src/errors/index.js';

/** The error catalogue itself (src/errors/): its entries, and that they render. */

/**
 * Parameters to render every entry with. Typed by the catalogue, so an entry added (or its
 * parameters changed) does not compile until it has its example here too.
 */
const EXAMPLES: { [C in ErrorCode]: ErrorArgs<C> } = {
  InvalidJson: [{ part: 'Memsource' }],
  RequestBodyMissing: [],
  InvalidContentLength: [],
  InvalidContentType: [],
  UnsupportedMediaType: [{ expected: 'multipart' }],
  PayloadTooLarge: [],
  FileTooLarge: [{ limitBytes: 2048 }],
  TooManyFiles: [{ max: 50 }],
  ContentDispositionMissing: [],
  BadRequest: [{ reason: 'The request is not valid HTTP.' }],
  InvalidRequestPath: [{ path: '/api2/v1/users/%zz' }],
  PathParameterTooLong: [{ maxLength: 500 }],
  RequestTimeout: [],
  AnalysisTooLarge: [{ segments: 300_001, limit: 300_000 }],
  NoPriceForLanguagePair: [{ sourceLang: 'en', targetLang: 'de' }],
  HourBillingNotSupported: [],
  QuoteWithoutProvider: [{ quoteUid: 'q1' }],
  MailNotConfigured: [],
  AnalysisNotFinished: [{ analysisUid: 'a1', status: 'RUNNING' }],
  MailDeliveryFailed: [{ sent: 0, total: 1 }],
  RequestHeaderFieldsTooLarge: [{ limitBytes: 16384 }],
  MethodNotAllowed: [{ method: 'PATCH', allow: 'GET, POST' }],
  InternalError: [],
  AuthUnauthorized: [],
  AuthInvalidCredentials: [],
  AuthSsoRequired: [],
  CsrfTokenInvalid: [{ header: 'x-csrf-token' }],
  InsufficientScope: [{ scope: 'write' }],
  AccessDenied: [{ reason: 'You may not view this user.' }],
  InvalidArguments: [{ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] }],
  TermBaseInvalidInput: [{ langs: ['fr'], reason: 'terms' }],
  GlossaryLanguagesRemoved: [{ langs: ['fr'] }],
  MtEngineNotAvailable: [{ type: 'DeepL', reason: 'no test server' }],
  MtLanguagePairNotSupported: [{ name: 'Apertium', sourceLang: 'en', targetLang: 'de' }],
  MachineTranslationFailed: [{ name: 'Apertium', reason: 'The engine did not answer.' }],
  MtCredentialsUnreadable: [{ name: 'DeepL' }],
  MtSettingsNotAssigned: [{ targetLang: 'de' }],
  HumanTranslationNotConfigured: [],
  SrxFileInvalid: [{ reason: 'the file has no <languagemap>: its rules would apply to no language' }],
  SegmentationRuleInvalid: [
    { languageRuleName: 'English', ruleIndex: 2, side: 'beforebreak', expression: '\\p{InGreek}', reason: 'a Unicode block' },
  ],
  UnsupportedLanguage: [{ field: 'targetLangs', code: 'xx_yy' }],
  SpellingDictionaryMissing: [{ lang: 'sw' }],
  ReferenceNotFound: [{ what: 'client', key: 'c1', field: 'client' }],
  InvalidCallbackUrl: [{ field: 'callbackUrl', reason: 'the host is a private address' }],
  CurrentPasswordWrong: [],
  BotUserReadOnly: [],
  LastAdmin: [],
  ImportSettingsInUse: [{ name: 'Default', usedAs: "the organization's default import settings" }],
  LqaProfileInUse: [{ name: 'Strict', usedAs: "the organization's default LQA profile" }],
  LastWorkflowStep: [],
  TypeCannotChange: [{ type: 'STRING' }],
  NothingToReplay: [],
  WebhookEventNotIncluded: [{ event: 'JOB_CREATED', included: ['PROJECT_CREATED'] }],
  InvalidVendorToken: [],
  CannotLinkOwnOrganization: [],
  OptionsNotAllowed: [{ field: 'options', reason: 'Only SINGLE_SELECT and MULTI_SELECT fields have options; this field is STRING.' }],
  OptionsRequired: [{ field: 'options', reason: 'A SINGLE_SELECT or MULTI_SELECT field needs at least one option.' }],
  TooManyOptions: [{ field: 'options', reason: 'A field has at most 1000 options.' }],
  InvalidOptionValue: [{ field: 'options[0]', reason: 'options[0] must not be blank.' }],
  DuplicateOptionValue: [{ field: 'options', reason: 'Option values are unique in a field, ignoring case.', detail: 'duplicate value' }],
  OptionNotFound: [{ field: 'removeOptions', reason: 'removeOptions: no option o1 in this field.' }],
  ConflictingOptionEdits: [{ field: 'removeOptions', reason: 'removeOptions: option o1 is named twice.' }],
  DuplicateSelectedOption: [{ field: 'selectedOptions', reason: 'selectedOptions: option o1 is selected twice.' }],
  OptionDeprecated: [{ field: 'selectedOptions', reason: 'selectedOptions: option o1 is deprecated and cannot be newly selected.' }],
  TooManySelectedOptions: [{ field: 'selectedOptions', reason: 'A SINGLE_SELECT field takes at most one option.' }],
  ValueNotAllowed: [{ field: 'value', reason: 'A SINGLE_SELECT field takes selected options, not a value.' }],
  ValueTooLong: [{ field: 'value', reason: 'value must be at most 4096 characters.' }],
  InvalidNumber: [{ field: 'value', reason: 'value "x" is not a number.' }],
  InvalidUrl: [{ field: 'value', reason: 'value "x" is not an absolute URL.' }],
  InvalidDate: [{ field: 'value', reason: 'value "x" is not an ISO 8601 date-time with a time zone.' }],
  ValueRequired: [{ field: 'value', reason: 'The field is required: it needs a value.' }],
  ResourceNotFound: [{ what: 'Vendor', uids: ['v1', 'v2'], field: 'vendors' }],
  NameAlreadyExists: [{ what: 'a client', name: 'Acme' }],
  UserNameAlreadyExists: [{ userName: 'jdoe', field: 'admin.userName' }],
  AbbreviationAlreadyExists: [{ abbr: 'TR' }],
  VendorAlreadyExists: [{ name: 'Vendor Ltd' }],
  WorkflowStepInUse: [{ name: 'Translation' }],
  UploadRaced: [],
  SeatLimitReached: [{ seats: 5 }],
  BusinessUnitsDisabled: [],
  TooManyRequests: [{ retryAfterSeconds: 7, rateHeaders: { 'x-rate-limit-limit': '600' } }],
  AuthTooManyAttempts: [{ retryAfterSeconds: 30 }],
  TooManyPendingRequests: [{ pending: 200, limit: 200 }],
  NotSupportedYet: [{ fields: ['preTranslate'] }],
  NotImplemented: [{ reason: 'Target files are available in the original format only.' }],
  RemoteUploadNotSupported: [],
  InvalidTargetLanguage: [{ langs: ['xx'] }],
  JobLimitExceeded: [{ existing: 9990, adding: 20, limit: 10000 }],
  ProjectJobLimitExceeded: [{ existing: 9990, adding: 20, limit: 10000 }],
  CloneNeedsTargetLanguages: [],
  MultilingualJobCannotBeCloned: [{ jobUids: ['j1'] }],
  JobStatusUnchanged: [{ status: 'NEW' }],
  JobStatusChangeNotAllowed: [{ from: 'NEW', to: 'COMPLETED' }],
  JobImportNotFinished: [{ jobUid: 'j1' }],
  JobImportFailed: [{ jobUid: 'j1' }],
  JobNotImported: [],
  BilingualFileUnreadable: [{ reason: 'malformed XML' }],
  BilingualFileMismatch: [{ reason: 'segment J:3 is not a segment of job J' }],
  QaWarningsUnresolved: [{ jobUid: 'j1', status: 'COMPLETED', count: 1, warnings: [{ segment: 's1:0', type: 'EmptyTranslation' }] }],
  QaWarningNotIgnorable: [{ warningId: 'w1', segment: 's1:0', reason: 'its check is not ignorable' }],
  QaRunTimedOut: [{ jobUid: 'j1', seconds: 300 }],
  SegmentLocked: [{ segment: 's1:0' }],
  JobChanged: [{ jobUid: 'j1' }],
  AnalysisNotReady: [{ failed: true, reason: 'TM index unavailable' }],
  TargetFileNotReady: [],
  TargetFileFailed: [],
  TargetFileAlreadyDownloaded: [],
  PreviewNotAvailable: [{ libreOfficeMissing: true }],
  PreviewFailed: [{ reason: 'LibreOffice did not finish within 120 s' }],
  PreviewPackageInvalid: [{ reason: 'the entry ../evil.html has a ".." path segment' }],
  FileHandoverDisabled: [],
  ZipNotAllowed: [],
  JobNotInFirstWorkflowStep: [{ jobUids: ['j2'] }],
  JobIsSplit: [{ file: 'source', jobUids: ['j1'] }],
  JobInFinalStatus: [{ jobUids: ['j1'] }],
  UpdateTargetNotAllowed: [{ extension: 'xlf' }],
  FileExtensionMismatch: [{ expected: 'docx', got: 'txt' }],
  FileOrNoteRequired: [],
  InstanceNotFound: [{ field: 'customFieldInstances[0]', uid: 'i1' }],
  ConflictingInstanceEdits: [{ field: 'customFieldInstances[1]', uid: 'i1' }],
  CustomFieldAlreadySet: [{ field: 'customFieldInstances[0]', fieldName: 'Cost', instanceUid: 'i1' }],
  DuplicateCustomField: [{ field: 'customFields[1]', fieldUid: 'f1' }],
};

/** What a rendered text must not show: a parameter that was not filled in. */
const UNRENDERED = /undefined|\[object Object\]|NaN/;

// Compiled, never run: TypeScript must refuse each of these (`npm run typecheck` fails on an unused directive).
export function refusedByTheCompiler(): void {
  // @ts-expect-error an unknown code
  errors.NoSuchCode();
  // @ts-expect-error an unknown code, given as a value
  apiError('NoSuchCode');
  // @ts-expect-error a required parameter is missing
  errors.NameAlreadyExists({ what: 'a client' });
  // @ts-expect-error parameters of the wrong type
  errors.FileTooLarge({ limitBytes: '2048' });
  // @ts-expect-error an entry with a fixed text takes none
  errors.LastAdmin({ reason: 'anything' });
  // @ts-expect-error an entry with parameters needs them
  errors.SeatLimitReached();
}

describe('the error catalogue', () => {
  it('has an example for every code (and no example of a code it does not have)', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('has unique codes, also ignoring case, none of them a SCIM or OAuth code', () => {
    const lower = ERROR_CODES.map((code) => code.toLowerCase());
    expect(new Set(lower).size).toBe(ERROR_CODES.length);
    const otherFamilies = [...Object.keys(SCIM_ERRORS), ...Object.keys(OAUTH_ERRORS)].map((code) => code.toLowerCase());
    expect(lower.filter((code) => otherFamilies.includes(code))).toEqual([]);
  });

  it('gives every code a 4xx or 5xx status that the error kinds know', () => {
    const statuses = new Set<number>(Object.values(STATUS));
    for (const code of ERROR_CODES) {
      const { status } = TMS_ERRORS[code];
      expect(status >= 400 && status <= 599 && statuses.has(status), `${code}: ${status}`).toBe(true);
    }
  });

  it.each(ERROR_CODES)('%s renders a message, details and headers from its parameters', (code) => {
    const error = apiError(code, ...(EXAMPLES[code] as ErrorArgs<typeof code>));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.errorCode).toBe(code);
    expect(error.status).toBe(TMS_ERRORS[code].status);
    expect(error.statusCode).toBe(TMS_ERRORS[code].status);
    expect(STATUS[error.kind]).toBe(error.status);
    expect(error.message.trim().length).toBeGreaterThan(5);
    expect(error.message).not.toMatch(UNRENDERED);
    for (const detail of error.details) {
      expect(typeof detail.field).toBe('string');
      expect(detail.message.length).toBeGreaterThan(0);
      expect(`${detail.field} ${detail.message}`).not.toMatch(UNRENDERED);
    }
    for (const value of Object.values(error.headers)) expect(value).not.toMatch(UNRENDERED);
    // The two ways of raising are the same.
    const again = (errors[code] as (...args: unknown[]) => ApiError)(...EXAMPLES[code]);
    expect([again.errorCode, again.message, again.details, again.headers]).toEqual([
      error.errorCode,
      error.message,
      error.details,
      error.headers,
    ]);
  });

  it('fixed texts are sentences', () => {
    for (const code of ERROR_CODES) {
      const { message } = TMS_ERRORS[code];
      if (typeof message === 'string') expect(message, code).toMatch(/^[A-Z"].*[.)]$/);
    }
  });

  it('renders the parameterised messages it promises', () => {
    expect(errors.NameAlreadyExists({ what: 'a client', name: 'Acme' }).message).toBe(
      'A client named "Acme" already exists in this organization.',
    );
    expect(errors.ResourceNotFound({ what: 'User' }).message).toBe('User not found.');
    expect(errors.ResourceNotFound({ what: 'Vendor', uids: ['a', 'b'], field: 'vendors' }).details).toEqual([
      { field: 'vendors', message: 'unknown uid "a"' },
      { field: 'vendors', message: 'unknown uid "b"' },
    ]);
    expect(errors.ResourceNotFound({ method: 'GET', path: '/api2/v9/x' }).message).toBe('There is no operation at GET /api2/v9/x.');
    expect(errors.ReferenceNotFound({ what: 'price list', key: '7', keyName: 'id', field: 'priceList' }).details).toEqual([
      { field: 'priceList', message: 'unknown id "7"' },
    ]);
    expect(errors.AccessDenied().message).toBe('You are not allowed to do this.');
    expect(errors.InvalidJson().message).toBe('The request body is not valid JSON.');
    expect(errors.InvalidJson({ empty: true }).message).toBe('The request says its body is JSON, but the body is empty.');
    expect(errors.TooManyRequests({ retryAfterSeconds: 3, rateHeaders: { 'x-rate-limit-remaining': '0' } }).headers).toEqual({
      'x-rate-limit-remaining': '0',
      'retry-after': '3',
    });
    expect(errors.MethodNotAllowed({ method: 'PUT', allow: 'GET' }).headers).toEqual({ allow: 'GET' });
    expect(errors.NotSupportedYet({ fields: ['a', 'b'] }).message).toBe('a, b: not available in this installation yet; leave them out.');
  });

  it('the custom field rule codes are entries that take the rule’s field and reason', () => {
    for (const code of CUSTOM_FIELD_RULE_CODES) {
      const error = apiError(code, { field: 'value', reason: 'The reason.' });
      expect([error.status, error.message, error.details]).toEqual([400, 'The reason.', [{ field: 'value', message: 'The reason.' }]]);
    }
  });

  it('tells the custom field rule codes from the others', () => {
    expect(CUSTOM_FIELD_RULE_CODES.every(isCustomFieldRuleCode)).toBe(true);
    expect(ERROR_CODES.filter(isCustomFieldRuleCode)).toHaveLength(CUSTOM_FIELD_RULE_CODES.length);
    expect(isCustomFieldRuleCode('InvalidArguments')).toBe(false);
  });

  it('renders the translation workflow’s variants', () => {
    expect(errors.ResourceNotFound({ what: 'Target file', reason: 'not of this job' }).message).toBe(
      'Target file not found: not of this job.',
    );
    expect(errors.NotSupportedYet({ option: 'byDocumentPart' })).toMatchObject({
      message: 'Splitting by document parts works only for PowerPoint files, which OpenTMS does not import yet.',
      details: [{ field: 'byDocumentPart', message: 'PowerPoint files only' }],
    });
    expect(errors.NotSupportedYet({ option: 'preTranslate' }).message).toBe(
      'preTranslate: pre-translation is not available in this installation yet; leave it out.',
    );
    expect(errors.JobImportNotFinished({ jobUid: 'j1' }).message).toBe(
      'Job j1 is still being imported; try again once its import finished.',
    );
    expect(errors.JobImportNotFinished({ targetFile: true }).message).toMatch(
      /^The job’s file is still being imported; ask for the target file/,
    );
    expect(errors.JobImportNotFinished({ filenames: ['a.txt', 'b.txt'] }).message).toBe(
      'a.txt, b.txt: still being imported; update the source once the import finished.',
    );
    expect(errors.JobImportFailed({ jobUid: 'j1' }).message).toBe('Job j1 could not be imported, so it has no segments.');
    expect(errors.JobImportFailed({ targetFile: true }).message).toBe('The job’s file could not be imported, so it has no target file.');
    expect(errors.JobIsSplit({ file: 'translated', jobUids: ['j1'] })).toMatchObject({
      message: 'A split job cannot take a translated file.',
      details: [{ field: 'jobs', message: 'job j1' }],
    });
  });
});

describe('the other error families', () => {
  it('SCIM: each error has its status and scimType (RFC 7644 §3.12)', () => {
    for (const [code, { status, scimType }] of Object.entries(SCIM_ERRORS)) {
      const error = scimErrors[code as keyof typeof SCIM_ERRORS]('A detail.');
      expect([error.status, error.scimType, error.message]).toEqual([status, scimType, 'A detail.']);
      expect(status >= 400 && status < 500).toBe(true);
    }
    expect(scimErrors.uniqueness('taken').status).toBe(409);
  });

  it('OAuth: each error has its status; invalid_client asks for Basic authentication (RFC 6749 §5.2)', () => {
    for (const [code, { status }] of Object.entries(OAUTH_ERRORS)) {
      const error = oauthErrors[code as keyof typeof OAUTH_ERRORS]('A description.');
      expect([error.statusCode, error.body]).toEqual([status, { error: code, error_description: 'A description.' }]);
    }
    expect(oauthErrors.invalid_client('x').headers).toEqual({ 'www-authenticate': 'Basic realm="opentms"' });
    expect(oauthRefusal(429, 'Too many requests.').statusCode).toBe(429);
  });

  it('asynchronous failures render their descriptions', () => {
    for (const code of Object.keys(ASYNC_FAILURES) as AsyncFailureCode[]) {
      const failure = (asyncFailure as (c: AsyncFailureCode, p: unknown) => { errorCode: string; errorDesc: string })(code, {
        filename: 'a.txt',
        reason: 'broken',
      });
      expect(failure.errorCode).toBe(code);
      expect(failure.errorDesc).not.toMatch(UNRENDERED);
      expect(failure.errorDesc.length).toBeGreaterThan(5);
    }
    expect(asyncFailure('AsyncTaskFailed', {})).toEqual({ errorCode: 'AsyncTaskFailed', errorDesc: 'The operation failed.' });
  });
});
