import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { EMAIL_TEMPLATE_TYPES } from '../../../domain/email-templates/email-template-defaults.js';

/** Spec definition `OrganizationEmailTemplateDto`. */
export const EmailTemplateSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    type: Type.Enum([...EMAIL_TEMPLATE_TYPES]),
    name: Type.String(),
    subject: Type.String(),
    body: Type.String({ description: 'Text with {{object.field}} placeholders (docs/workflow-and-notifications.md)' }),
    ccAddress: Nullable(Type.String()),
    bccAddress: Nullable(Type.String()),
  },
  { title: 'OrganizationEmailTemplateDto' },
);

export const EmailTemplatePage = PageOf(EmailTemplateSchema, 'PageDtoOrganizationEmailTemplateDto');

export const EmailTemplateListQuery = Type.Object({
  type: Type.Optional(Type.Enum([...EMAIL_TEMPLATE_TYPES], { description: 'Only templates of this type' })),
  ...PagingQuery,
});

export const EmailTemplateUidParams = Type.Object({ templateUid: recordUid('emailTemplates') });
