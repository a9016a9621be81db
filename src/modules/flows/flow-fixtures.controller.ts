import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { IfMatch, setEtag } from '../../shared/concurrency/if-match';
import { AscendingPageParams } from '../../shared/pagination/page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CreateFixtureCommand } from './create-fixture/create-fixture.command';
import { DeleteFixtureCommand } from './delete-fixture/delete-fixture.command';
import { FixtureRequest } from './dto/fixture.request.dto';
import { FixtureResponse } from './dto/fixture.response.dto';
import { GetFixtureQuery } from './get-fixture/get-fixture.query';
import { FixturePage } from './dto/fixture-page.response.dto';
import { ListFixturesQuery } from './list-fixtures/list-fixtures.query';
import { ReplaceFixtureCommand } from './replace-fixture/replace-fixture.command';

const NOT_FOUND = 'The flow or the fixture is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_fixture`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId/fixtures')
export class FlowFixturesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get()
  @OperationId('ListFixturesController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FixturePage, description: 'Ascending by (createdAt, fixtureId), with `totalCount`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: AscendingPageParams): Promise<FixturePage> {
    return this.queryBus.execute(new ListFixturesQuery(caller, flowId, params));
  }

  @Post()
  @OperationId('CreateFixtureController_create')
  @RequirePermission('flows:write')
  @ApiCreatedResponse({ type: FixtureResponse, description: '`Location: /v1/flows/{flowId}/fixtures/{fixtureId}`, `ETag: "1"`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`max_fixtures`: a flow has at most 100 fixtures.' })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: FixtureRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FixtureResponse> {
    const fixture = await this.commandBus.execute(new CreateFixtureCommand(caller, flowId, body));
    res.location(`/v1/flows/${flowId}/fixtures/${fixture.fixtureId}`);
    setEtag(res, fixture);
    return fixture;
  }

  @Get(':fixtureId')
  @OperationId('GetFixtureController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FixtureResponse, description: 'With `ETag`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FixtureResponse> {
    const fixture = await this.queryBus.execute(new GetFixtureQuery(caller, flowId, fixtureId));
    setEtag(res, fixture);
    return fixture;
  }

  @Put(':fixtureId')
  @OperationId('ReplaceFixtureController_replace')
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: FixtureResponse, description: 'Fixture updated: the whole fixture replaced, new `ETag`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`).' })
  async replace(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: FixtureRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FixtureResponse> {
    const fixture = await this.commandBus.execute(new ReplaceFixtureCommand(caller, flowId, fixtureId, expectedLockVersion, body));
    setEtag(res, fixture);
    return fixture;
  }

  @Delete(':fixtureId')
  @OperationId('DeleteFixtureController_delete')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`).' })
  async delete(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
    @IfMatch() expectedLockVersion: number,
  ): Promise<void> {
    await this.commandBus.execute(new DeleteFixtureCommand(caller, flowId, fixtureId, expectedLockVersion));
  }
}
