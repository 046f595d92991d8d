import nodemailer from 'nodemailer';

/**
 * Outgoing email over SMTP (nodemailer): the one way the service sends mail. The server is
 * `OPENTMS_SMTP_URL` (`smtp://[user:password@]host[:port]`, or `smtps://` for TLS from the first
 * byte; a plain `smtp://` connection upgrades with STARTTLS when the server offers it), the sender
 * `OPENTMS_MAIL_FROM`. Plain text only. Callers get the settings from the config; this file knows
 * no module.
 */

export interface MailSettings {
  readonly smtpUrl: string;
  readonly from: string;
  /** Connecting, the greeting and each exchange with the server each get this long. */
  readonly timeoutMilliseconds: number;
}

export interface MailMessage {
  readonly to: readonly string[];
  /** Comma-separated addresses, as a request gives them. */
  readonly cc?: string | undefined;
  readonly bcc?: string | undefined;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  /** Sends one message; rejects when the server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<void>;
  /** Closes the connection(s) to the server. */
  close(): void;
}

/** A mailer for one batch of messages: it connects on the first `send`; `close` it afterwards. */
export function createMailer(settings: MailSettings): Mailer {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: settings.timeoutMilliseconds,
    greetingTimeout: settings.timeoutMilliseconds,
    socketTimeout: settings.timeoutMilliseconds,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: [...message.to],
        ...(message.cc ? { cc: message.cc } : {}),
        ...(message.bcc ? { bcc: message.bcc } : {}),
        subject: message.subject,
        text: message.text,
      });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * The addresses of a comma- or semicolon-separated list (`a@x.test, B <b@y.test>` gives both
 * addresses), or null when an entry is not an address.
 */
export function parseAddressList(list: string): string[] | null {
  const entries = list
    .split(/[,;]/)
    .map((e) => e.trim())
    .filter(Boolean);
  const addresses: string[] = [];
  for (const entry of entries) {
    const address = (/<([^<>]+)>$/.exec(entry)?.[1] ?? entry).trim();
    if (!/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(address)) return null;
    addresses.push(address);
  }
  return addresses;
}
