import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { Page } from '../../../shared/pagination/page';
import type { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import type { ListFlowTemplatesParams } from '../dto/flow-template.request.dto';

export class ListFlowTemplatesQuery extends Query<Page<FlowTemplateResponse>> {
  constructor(
    readonly principal: Principal,
    readonly params: ListFlowTemplatesParams,
  ) {
    super();
  }
}
