import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { RenderedEmailResponse } from '../dto/email-template-version.response.dto';
import type { RenderEmailTemplateVersionRequest } from '../dto/email-template-version.request.dto';

export class RenderEmailTemplateVersionQuery extends Query<RenderedEmailResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly emailTemplateVersionId: string,
    readonly input: RenderEmailTemplateVersionRequest,
  ) {
    super();
  }
}
