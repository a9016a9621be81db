import { Injectable } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { AppConfig } from '../../../config/app-config';
import { SmtpFailure, smtpFailureOf } from '../domain/delivery-schedule';

/** A rendered e-mail for one recipient. */
export interface OutgoingEmail {
  to: string;
  /** With angle brackets: `<id@domain>`. */
  messageId: string;
  subject: string;
  text: string;
  html: string | null;
}

/** The server's answer to an accepted message. */
export interface SmtpAcceptance {
  smtpCode: number;
  smtpReply: string;
}

/** The domain of MAIL_FROM's address, which names every `Message-ID`. */
export function mailDomainOf(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const domain = address.split('@')[1]?.trim().toLowerCase();
  return domain && /^[a-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

/** The `Message-ID` of a delivery, derived from its id so that a resend carries the same one. */
export function messageIdOf(deliveryId: string, mailFrom: string): string {
  return `<${deliveryId}@${mailDomainOf(mailFrom)}>`;
}

/**
 * Sends one e-mail over SMTP through @nestjs-modules/mailer (nodemailer's SMTP transport, pooled unless
 * SMTP_POOL=false) and answers the server's reply, or throws SmtpFailure. The rendered text is handed over as is:
 * no mailer template context, so no text is ever interpreted twice.
 */
@Injectable()
export class MailTransport {
  constructor(
    private readonly mailer: MailerService,
    private readonly config: AppConfig,
  ) {}

  get configured(): boolean {
    return this.config.smtpUrl !== null;
  }

  async send(email: OutgoingEmail): Promise<SmtpAcceptance> {
    if (!this.configured) throw new SmtpFailure('mail_not_configured', 'SMTP_URL is not set.', true, null, null);
    let info: { response?: string };
    try {
      info = (await this.mailer.sendMail({
        from: this.config.mailFrom,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html === null ? {} : { html: email.html }),
        messageId: email.messageId,
      })) as { response?: string };
    } catch (error) {
      throw smtpFailureOf(error);
    }
    const reply = String(info.response ?? '250').slice(0, 1000);
    const code = Number(/^(\d{3})/.exec(reply)?.[1] ?? 250);
    return { smtpCode: code, smtpReply: reply };
  }

  /** Opens a connection and authenticates (nodemailer's verify); throws SmtpFailure. */
  async verify(): Promise<void> {
    if (!this.configured) throw new SmtpFailure('mail_not_configured', 'SMTP_URL is not set.', true, null, null);
    try {
      await this.mailer.getTransporter().verify();
    } catch (error) {
      throw smtpFailureOf(error);
    }
  }
}
