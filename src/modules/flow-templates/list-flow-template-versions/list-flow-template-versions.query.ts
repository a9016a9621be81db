import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import type { ListFlowTemplateVersionsParams } from '../dto/flow-template-version.request.dto';

export class ListFlowTemplateVersionsQuery extends Query<NewestFirstPage<FlowTemplateVersionResponse>> {
  constructor(
    readonly principal: Principal,
    readonly flowTemplateId: string,
    readonly params: ListFlowTemplateVersionsParams,
  ) {
    super();
  }
}
