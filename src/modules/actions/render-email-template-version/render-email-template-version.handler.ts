import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { RENDER_CONTEXT_SOURCE, type RenderContextSource } from '../domain/delivery-ports';
import { renderEmail, type EmailRenderContext } from '../domain/template-syntax';
import type { RenderContextRequest } from '../dto/email-template-version.request.dto';
import { RenderedEmailResponse } from '../dto/email-template-version.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { RenderEmailTemplateVersionQuery } from './render-email-template-version.query';

const executionNotFound = () =>
  ValidationFailedError.single('body.flowExecutionId', 'reference_not_found', 'This tenant has no flow execution with this id.');

/** A given context completed with empty parts, so a missing value prints "" as in a real e-mail. */
export function contextOf(given: RenderContextRequest = {}): EmailRenderContext {
  return {
    tenant: { name: given.tenant?.name ?? '' },
    device: { name: given.device?.name ?? null, devEui: given.device?.devEui ?? null, metadata: given.device?.metadata ?? {} },
    organizationUnit: given.organizationUnit ? { name: given.organizationUnit.name ?? '', key: given.organizationUnit.key ?? '' } : null,
    values: given.values ?? {},
    observedAt: given.observedAt ?? null,
    flow: { name: given.flow?.name ?? '' },
    parameters: given.parameters ?? {},
  };
}

/**
 * What a version (of any status) renders to, exactly as the delivery renders it, against a given context or the
 * values of one of the tenant's executions. Nothing is sent, stored or audited.
 */
@QueryHandler(RenderEmailTemplateVersionQuery)
export class RenderEmailTemplateVersionHandler implements IQueryHandler<RenderEmailTemplateVersionQuery, RenderedEmailResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly templates: EmailTemplateStore,
    @Inject(RENDER_CONTEXT_SOURCE) private readonly contexts: RenderContextSource,
  ) {}

  async execute({ caller, emailTemplateId, emailTemplateVersionId, input }: RenderEmailTemplateVersionQuery): Promise<RenderedEmailResponse> {
    if (input.context !== undefined && input.flowExecutionId !== undefined) {
      throw ValidationFailedError.single('body.flowExecutionId', 'mismatch', 'Give either `context` or `flowExecutionId`, not both.');
    }
    const { access, template } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    const manager = this.dataSource.manager;
    const version = await this.templates.versions.findVersion(manager, emailTemplateId, emailTemplateVersionId);
    let context: EmailRenderContext;
    if (input.flowExecutionId !== undefined) {
      const found = await this.contexts.forExecution(manager, template.tenantId, input.flowExecutionId);
      if (!found) throw executionNotFound();
      context = found;
    } else {
      context = contextOf(input.context);
    }
    const rendered = renderEmail(
      { subject: String(version.row.subject), bodyText: String(version.row.body_text), bodyHtml: version.row.body_html === null ? null : String(version.row.body_html) },
      context,
    );
    return { subject: rendered.subject, bodyText: rendered.text, bodyHtml: rendered.html };
  }
}
