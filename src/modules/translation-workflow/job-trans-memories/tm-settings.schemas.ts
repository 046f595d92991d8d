import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { TransMemorySchema, TransMemoryV3Schema } from '../../language-resources/translation-memories/index.js';
import { UidReference, WorkflowStepReference } from '../../organization-setup/setup-records/index.js';

/**
 * Wire shapes of the TM settings of projects and templates (spec definitions named on each),
 * shared by the projects and project-templates modules. Versions:
 * - v3 (projects: GET/PUT; templates: GET) and v2 PUT of templates: `dataPerContext` bodies
 *   (SetProjectTransMemoriesV3Dto, SetProjectTemplateTransMemoriesV2Dto);
 * - v2 answers carry `TransMemoryDtoV2` (with `owner`), v3 answers `TransMemoryDtoV3` (without);
 * - v1 (not in the Swagger, reconstructed): the body is one context (`transMemories`,
 *   `targetLang`, `workflowStep`, `orderEnabled`, as one entry of `dataPerContext`) and the
 *   answer the v2 list (`transMemories[]` of `{transMemory, readMode, writeMode, penalty,
 *   applyPenaltyTo101Only, order, targetLocale, workflowStep}`).
 */

const Lang = Type.String({ minLength: 1, maxLength: 64 });

/** Spec `SetProjectTransMemoryV3Dto` / `SetProjectTemplateTransMemoryV2Dto`. */
export const SetTransMemoryItem = Type.Object({
  transMemory: UidReference,
  readMode: Type.Optional(Type.Boolean({ description: 'Default: false' })),
  writeMode: Type.Optional(Type.Boolean({ description: 'Only with readMode; at most 2 write TMs per context. Default: false' })),
  penalty: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  applyPenaltyTo101Only: Type.Optional(Type.Boolean()),
  order: Type.Optional(Type.Integer({ minimum: -(2 ** 31), maximum: 2 ** 31 - 1 })),
});
export type SetTransMemoryItem = Static<typeof SetTransMemoryItem>;

/** Spec `SetContextTransMemoriesDtoV3Dto` / `SetContextPTTransMemoriesV2Dto`; also the whole v1 body. */
export const SetTransMemoryContext = Type.Object({
  transMemories: Type.Array(SetTransMemoryItem, { maxItems: 100 }),
  targetLang: Type.Optional(Lang),
  workflowStep: Type.Optional(UidReference),
  orderEnabled: Type.Optional(Type.Boolean({ description: 'Default: false' })),
});
export type SetTransMemoryContext = Static<typeof SetTransMemoryContext>;

/** Spec `SetProjectTransMemoriesV3Dto` / `SetProjectTemplateTransMemoriesV2Dto`. */
export const SetTransMemoriesBody = Type.Object({ dataPerContext: Type.Array(SetTransMemoryContext, { maxItems: 1000 }) });
export type SetTransMemoriesBody = Static<typeof SetTransMemoriesBody>;

/** The query of the GET operations (targetLang, wfStepUid). */
export const TransMemorySettingsQuery = Type.Object({
  targetLang: Type.Optional(Type.String({ maxLength: 64, description: 'Filter project translation memories by target language' })),
  wfStepUid: Type.Optional(Type.String({ maxLength: 64, description: 'Filter project translation memories by workflow step' })),
});
export type TransMemorySettingsQuery = Static<typeof TransMemorySettingsQuery>;

const itemFields = <T extends TSchema>(transMemory: T) => ({
  transMemory,
  targetLocale: Nullable(Type.String()),
  workflowStep: Nullable(WorkflowStepReference),
  readMode: Type.Boolean(),
  writeMode: Type.Boolean(),
  penalty: Type.Number(),
  applyPenaltyTo101Only: Type.Boolean(),
  order: Type.Integer(),
});

/** A list of settings in the shape with the TM's owner (v1, v2), titled as its spec definition. */
export function settingsListWithOwner(listTitle: string, itemTitle: string) {
  return Type.Object({ transMemories: Type.Array(Type.Object(itemFields(TransMemorySchema), { title: itemTitle })) }, { title: listTitle });
}

/** A list of settings in the v3 shape (TransMemoryDtoV3), titled as its spec definition. */
export function settingsListV3(listTitle: string, itemTitle: string) {
  return Type.Object(
    { transMemories: Type.Array(Type.Object(itemFields(TransMemoryV3Schema), { title: itemTitle })) },
    { title: listTitle },
  );
}

/** The query of relevantTransMemories (projects and templates). */
export const RelevantTransMemoriesQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  domainName: Type.Optional(Type.String({ maxLength: 255 })),
  clientName: Type.Optional(Type.String({ maxLength: 255 })),
  subDomainName: Type.Optional(Type.String({ maxLength: 255 })),
  targetLangs: Type.Optional(Type.Array(Lang, { maxItems: 500 })),
  strictLangMatching: Type.Optional(Type.Boolean({ default: false })),
  ...PagingQuery,
});

/** Spec `PageDtoTransMemoryDto` (relevantTransMemories). */
export const TransMemoryPage = PageOf(TransMemorySchema, 'PageDtoTransMemoryDto');
