import type { AppDeps } from '../../../deps.js';
import { renderPlaceholders } from '../../../domain/workflow-steps/placeholders.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { createMailer, parseAddressList } from '../../../outbound/mail.js';
import type { MailMessage } from '../../../outbound/mail.js';
import { providerRecipients, senderOf } from './quotes.repository.js';
import type { QuoteRow, Recipient } from './quotes.repository.js';
import type { EmailQuotesBody } from './quotes.schemas.js';
import { requireQuote } from './quotes.service.js';

/**
 * Emails quotes to their providers (description, "Behaviour of other operations" 14: every quote
 * needs a provider). One plain-text message per quote, to the provider's addresses (a user: their
 * email; a vendor: its buyer owner, else the vendor organization's active ADMINs), with the
 * request's cc and bcc. The email templates have no type for this message (QUOTE_UPDATED and
 * QUOTE_STATUS_CHANGED announce changes; CmsQuoteReady and JobWidget… belong to features OpenTMS
 * lacks), so the request's subject and body are the message, with the template placeholders
 * ({{quote.name}}, {{quote.totalPrice}}, …) filled in per quote. Everything is checked before
 * the first message goes out.
 */
export async function emailQuotes(deps: AppDeps, caller: Caller, body: EmailQuotesBody): Promise<{ recipients: string[] }> {
  const db = deps.database.db;
  const prepared: { quote: QuoteRow; projectName: string; recipients: Recipient[] }[] = [];
  const seen = new Set<string>();
  for (const { uid } of body.quotes) {
    const { quote, project } = await requireQuote(deps, caller, uid, 'edit');
    if (seen.has(quote.id)) continue;
    seen.add(quote.id);
    if (quote.providerUserId === null && quote.providerVendorId === null) throw errors.QuoteWithoutProvider({ quoteUid: quote.uid });
    const recipients = await providerRecipients(db, quote);
    if (recipients.length === 0) throw errors.QuoteWithoutProvider({ quoteUid: quote.uid, noEmail: true });
    prepared.push({ quote, projectName: project.project.name, recipients });
  }
  const copies: { cc?: string; bcc?: string } = {};
  for (const field of ['cc', 'bcc'] as const) {
    const list = body[field]?.trim();
    if (!list) continue;
    const addresses = parseAddressList(list);
    if (addresses === null) {
      throw errors.InvalidArguments({
        reason: `${field} must be a comma-separated list of email addresses.`,
        details: [{ field, message: 'not a list of email addresses' }],
      });
    }
    copies[field] = addresses.join(', ');
  }
  const smtpUrl = deps.config.mail.smtpUrl;
  if (smtpUrl === null) throw errors.MailNotConfigured();

  const sender = await senderOf(db, caller.userId);
  const messages: MailMessage[] = prepared.map(({ quote, projectName, recipients }) => {
    const first = recipients.length === 1 ? recipients[0]! : null;
    const values = {
      'quote.name': quote.name,
      'quote.status': quote.status,
      'quote.totalPrice': quote.totalPrice,
      'quote.currency': quote.currency,
      'project.name': projectName,
      'recipient.firstName': first?.firstName,
      'recipient.lastName': first?.lastName,
      'recipient.fullName': first ? [first.firstName, first.lastName].filter(Boolean).join(' ') : undefined,
      'recipient.userName': first?.userName,
      'recipient.email': first?.email,
      'sender.fullName': sender.fullName,
      'actor.fullName': sender.fullName,
      'organization.name': sender.organizationName,
    };
    return {
      to: recipients.map((r) => r.email),
      ...copies,
      subject: renderPlaceholders(body.subject, values).replace(/[\r\n]+/g, ' '),
      text: renderPlaceholders(body.body, values),
    };
  });

  const mailer = createMailer({ smtpUrl, from: deps.config.mail.from, timeoutMilliseconds: deps.config.outboundTimeoutMilliseconds });
  let sent = 0;
  try {
    for (const message of messages) {
      await mailer.send(message);
      sent++;
    }
  } catch (error) {
    throw Object.assign(errors.MailDeliveryFailed({ sent, total: messages.length }), { cause: error });
  } finally {
    mailer.close();
  }
  return { recipients: [...new Set(messages.flatMap((m) => m.to))] };
}
