import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { IfMatch } from '../../shared/concurrency/if-match';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_FIXTURES_DOCS } from './flow-fixtures.docs';
import { Route, WriteById } from '../../shared/http/routes';

const NOT_FOUND = 'The flow or the fixture is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_fixture`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_FIXTURES_DOCS)
@Controller('v1/flows/:flowId/fixtures')
export class FlowFixturesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'flowFixtures_list',
    permission: 'flows:read',
    type: FixturePage,
    description: 'Ascending by (createdAt, fixtureId), with `totalCount`.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: AscendingPageParams): Promise<FixturePage> {
    return this.queryBus.execute(new ListFixturesQuery(caller, flowId, params));
  }

  @Route('post', '', {
    operationId: 'flowFixtures_create',
    permission: 'flows:write',
    type: FixtureResponse,
    location: '/v1/flows/{flowId}/fixtures/{fixtureId}',
    description: '`Location: /v1/flows/{flowId}/fixtures/{fixtureId}`, `ETag: "1"`.',
    etag: true,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`max_fixtures`: a flow has at most 100 fixtures.',
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: FixtureRequest,
  ): Promise<FixtureResponse> {
    return this.commandBus.execute(new CreateFixtureCommand(caller, flowId, body));
  }

  @Route('get', ':fixtureId', {
    operationId: 'flowFixtures_get',
    permission: 'flows:read',
    type: FixtureResponse,
    description: 'With `ETag`.',
    etag: true,
    notFound: NOT_FOUND,
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
  ): Promise<FixtureResponse> {
    return this.queryBus.execute(new GetFixtureQuery(caller, flowId, fixtureId));
  }

  @WriteById('put', ':fixtureId', {
    operationId: 'flowFixtures_replace',
    permission: 'flows:write',
    type: FixtureResponse,
    description: 'Fixture updated: the whole fixture replaced, new `ETag`.',
    etag: true,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`).',
  })
  replace(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: FixtureRequest,
  ): Promise<FixtureResponse> {
    return this.commandBus.execute(new ReplaceFixtureCommand(caller, flowId, fixtureId, expectedLockVersion, body));
  }

  @WriteById('delete', ':fixtureId', {
    operationId: 'flowFixtures_delete',
    permission: 'flows:write',
    status: 204,
    description: 'Deleted.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`).',
  })
  async delete(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('fixtureId') fixtureId: string,
    @IfMatch() expectedLockVersion: number,
  ): Promise<void> {
    await this.commandBus.execute(new DeleteFixtureCommand(caller, flowId, fixtureId, expectedLockVersion));
  }
}
