import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../../../config/app-config';

/** nodemailer's transport plugin interface, the part the mailer calls. */
interface TransportPlugin {
  name: string;
  version: string;
  send(mail: unknown, callback: (error: Error | null, info?: unknown) => void): void;
  verify(): Promise<true>;
  close(): void;
}

/**
 * The SMTP connection (nodemailer's SMTP transport, pooled unless SMTP_POOL=false) that @nestjs-modules/mailer
 * sends through. Nest closes the mailer's transport in its module-destroy step, before the job worker has let the
 * sends in flight finish; a send cut there may already be accepted by the server and would go out twice. So the
 * mailer gets a plugin whose `close` does nothing, and the connection closes at application shutdown, after the
 * job worker drained.
 */
@Injectable()
export class SmtpConnection implements OnApplicationShutdown {
  private readonly inner: Transporter | null;
  readonly transport: TransportPlugin | Record<string, unknown>;

  constructor(config: AppConfig) {
    this.inner = config.smtpUrl === null ? null : createTransport(smtpTransportOptions(config));
    const inner = this.inner as unknown as { transporter: { send: TransportPlugin['send'] }; verify(): Promise<true> } | null;
    this.transport =
      inner === null
        ? { jsonTransport: true }
        : {
            name: 'SMTP',
            version: '1',
            send: (mail, callback) => inner.transporter.send(mail, callback),
            verify: () => inner.verify(),
            close: () => undefined,
          };
  }

  onApplicationShutdown(): void {
    this.inner?.close();
  }
}

/** The nodemailer transport options of the configured SMTP server (TLS from the URL: `smtps://` or STARTTLS). */
export function smtpTransportOptions(config: AppConfig): Record<string, unknown> {
  return {
    url: config.smtpUrl,
    pool: config.smtpPool,
    maxConnections: config.smtpMaxConnections,
    connectionTimeout: config.smtpTimeoutMs,
    greetingTimeout: config.smtpTimeoutMs,
    socketTimeout: config.smtpTimeoutMs,
  };
}

/** Provides the SmtpConnection to the mailer's async configuration. */
@Module({ providers: [SmtpConnection], exports: [SmtpConnection] })
export class SmtpConnectionModule {}
