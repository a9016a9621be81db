import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { AccessService } from '../../../shared/access/access.service';
import { resolveResource } from '../../../shared/access/resolve-resource';
import { DomainError, RateLimitedError, ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { RENDER_CONTEXT_SOURCE, RenderContextSource } from '../domain/delivery-ports';
import { SmtpFailure } from '../domain/delivery-schedule';
import { EmailRenderContext, renderEmail } from '../domain/template-syntax';
import { TestSendResponse } from '../dto/test-send.dto';
import { mailDomainOf, MailTransport } from '../mail/mail-transport';
import { emptyRenderContext } from '../send-email-deliveries/delivery-sender';
import { TestSendEmailCommand } from './test-send-email.command';

interface VersionRow {
  tenantId: string;
  versionNumber: number;
  subject: string;
  bodyText: string;
  bodyHtml: string | null;
}

/** The values given in a request, over the empty context: only the known shapes are taken, the rest ignored. */
export function renderContextFrom(given: Record<string, unknown>): EmailRenderContext {
  const base = emptyRenderContext();
  const object = (value: unknown): Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const device = object(given.device);
  const unit = given.organizationUnit === undefined || given.organizationUnit === null ? null : object(given.organizationUnit);
  return {
    tenant: { name: text(object(given.tenant).name) ?? base.tenant.name },
    device: {
      name: text(device.name),
      devEui: text(device.devEui),
      metadata: Object.fromEntries(Object.entries(object(device.metadata)).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
    },
    organizationUnit: unit === null ? null : { name: text(unit.name) ?? '', key: text(unit.key) ?? '' },
    values: object(given.values),
    observedAt: text(given.observedAt),
    flow: { name: text(object(given.flow).name) ?? '' },
    parameters: object(given.parameters),
  };
}

/**
 * Renders a version like the render endpoint and sends it at once to one address, answering the SMTP server's
 * reply (502 `DEPENDENCY_FAILURE` with it when the server refuses). Nothing is stored but the audit event (no
 * bodies); each user may test-send ACTIONS_TEST_SENDS_PER_MINUTE times a minute.
 */
@CommandHandler(TestSendEmailCommand)
export class TestSendEmailHandler implements ICommandHandler<TestSendEmailCommand, TestSendResponse> {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly transport: MailTransport,
    private readonly config: AppConfig,
    @Inject(RENDER_CONTEXT_SOURCE) private readonly contexts: RenderContextSource,
  ) {}

  async execute({ caller, templateId, versionId, body }: TestSendEmailCommand): Promise<TestSendResponse> {
    if (body.context !== undefined && body.flowExecutionId !== undefined) {
      throw ValidationFailedError.single('body.flowExecutionId', 'mismatch', 'Give `context` or `flowExecutionId`, not both.');
    }
    const { resource: version, access } = await resolveResource(this.accessService, caller.principal, {
      load: () => this.version(templateId, versionId),
      notFound: () => new ResourceNotFoundError('email_template_version'),
    });
    access.require(caller.permission);
    this.throttle(caller.principal.userId);
    let context: EmailRenderContext = body.context ? renderContextFrom(body.context) : emptyRenderContext();
    if (body.flowExecutionId !== undefined) {
      const found = await this.contexts.forExecution(this.dataSource.manager, version.tenantId, body.flowExecutionId.toLowerCase());
      if (!found) throw ValidationFailedError.single('body.flowExecutionId', 'reference_not_found', 'No execution of this tenant has this id.');
      context = found;
    }
    const email = renderEmail(version, context);
    const messageId = `<test-${randomUUID()}@${mailDomainOf(this.config.mailFrom)}>`;
    let accepted: { smtpCode: number; smtpReply: string };
    try {
      accepted = await this.transport.send({ to: body.to, messageId, subject: email.subject, text: email.text, html: email.html });
    } catch (error) {
      const failure = error instanceof SmtpFailure ? error : new SmtpFailure('send_error', 'The e-mail could not be sent.', true, null, null);
      throw new DomainError(
        'DEPENDENCY_FAILURE',
        `The SMTP server did not accept the test e-mail: ${failure.smtpReply ?? failure.code}`,
        { dependency: 'mail', reason: failure.code, smtpCode: failure.smtpCode, smtpReply: failure.smtpReply },
        {},
        502,
      );
    }
    await this.unitOfWork.run((tx) =>
      tx.audit({
        eventType: 'email_template_version.test_sent',
        action: 'test_send',
        entityType: 'email_template_version',
        entityId: versionId,
        tenantId: version.tenantId,
        metadata: { emailTemplateId: templateId, versionNumber: version.versionNumber, smtpCode: accepted.smtpCode, messageId },
      }),
    );
    return { messageId, smtpCode: accepted.smtpCode, smtpReply: accepted.smtpReply };
  }

  private async version(templateId: string, versionId: string): Promise<VersionRow | null> {
    const [row] = await this.dataSource.query<VersionRow[]>(
      `SELECT tenant_id AS "tenantId", version_number AS "versionNumber", subject, body_text AS "bodyText", body_html AS "bodyHtml"
         FROM email_template_versions WHERE email_template_version_id = $1 AND email_template_id = $2`,
      [versionId, templateId],
    );
    return row ?? null;
  }

  private throttle(userId: string): void {
    const now = Date.now();
    const recent = (this.recent.get(userId) ?? []).filter((at) => at > now - 60_000);
    if (recent.length >= this.config.actionsTestSendsPerMinute) {
      throw new RateLimitedError((recent[0]! + 60_000 - now) / 1000, 'Too many test e-mails. Retry later.');
    }
    recent.push(now);
    this.recent.set(userId, recent);
  }
}
