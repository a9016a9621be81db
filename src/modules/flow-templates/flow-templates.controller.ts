import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, Route, WriteById } from '../../shared/http/routes';
import { PageResponse } from '../../shared/pagination/page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CreateFlowTemplateCommand } from './create-flow-template/create-flow-template.command';
import { CreateFlowTemplateRequest, ListFlowTemplatesParams, UpdateFlowTemplateRequest } from './dto/flow-template.request.dto';
import { FlowTemplateResponse } from './dto/flow-template.response.dto';
import { FLOW_TEMPLATES_PARAMETER_EXAMPLES, FLOW_TEMPLATES_SCHEMA_EXAMPLES } from './flow-templates.examples';
import { FLOW_TEMPLATES_DOCS } from './flow-templates.docs';
import { GetFlowTemplateQuery } from './get-flow-template/get-flow-template.query';
import { ListFlowTemplatesQuery } from './list-flow-templates/list-flow-templates.query';
import { UpdateFlowTemplateCommand } from './update-flow-template/update-flow-template.command';

export class FlowTemplatePage extends PageResponse(FlowTemplateResponse) {}

const NOT_FOUND = 'No flow template with this id (`resourceType` `flow_template`).';

/** Flow templates: global, written by platform administrators, read by every signed-in user. */
@ApiTags('flow-templates')
@ApiBearerAuth()
@ApiDocs(FLOW_TEMPLATES_DOCS, { schemas: FLOW_TEMPLATES_SCHEMA_EXAMPLES, parameters: FLOW_TEMPLATES_PARAMETER_EXAMPLES })
@Controller('v1/flow-templates')
export class FlowTemplatesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'flowTemplates_list',
    type: FlowTemplatePage,
    description: 'Ascending by (createdAt, flowTemplateId); each with its newest released version and the fields it needs.',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListFlowTemplatesParams): Promise<FlowTemplatePage> {
    return this.queryBus.execute(new ListFlowTemplatesQuery(principal, params));
  }

  @Route('post', '', {
    operationId: 'flowTemplates_create',
    platformAdminOnly: true,
    type: FlowTemplateResponse,
    description: '`Location: /v1/flow-templates/{flowTemplateId}`.',
    location: '/v1/flow-templates/{flowTemplateId}',
    conflict: '`duplicate_key`.',
  })
  create(@Body() body: CreateFlowTemplateRequest): Promise<FlowTemplateResponse> {
    return this.commandBus.execute(new CreateFlowTemplateCommand(body));
  }

  @ReadById(':flowTemplateId', { operationId: 'flowTemplates_get', type: FlowTemplateResponse, notFound: NOT_FOUND })
  get(@UuidParam('flowTemplateId') flowTemplateId: string): Promise<FlowTemplateResponse> {
    return this.queryBus.execute(new GetFlowTemplateQuery(flowTemplateId));
  }

  @WriteById('patch', ':flowTemplateId', {
    operationId: 'flowTemplates_update',
    platformAdminOnly: true,
    type: FlowTemplateResponse,
    description: '`name` and `description`; `key` is immutable (`unknown_property`).',
    notFound: NOT_FOUND,
  })
  update(@UuidParam('flowTemplateId') flowTemplateId: string, @Body() body: UpdateFlowTemplateRequest): Promise<FlowTemplateResponse> {
    return this.commandBus.execute(new UpdateFlowTemplateCommand(flowTemplateId, { ...body }));
  }
}
