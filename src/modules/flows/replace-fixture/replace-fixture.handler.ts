import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FixtureRepository } from '../persistence/fixture.repository';
import { FixtureResponse } from '../dto/fixture.response.dto';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { ReplaceFixtureCommand } from './replace-fixture.command';

/**
 * Replaces a whole fixture (shape 1 or 2) at the lockVersion `If-Match` names; lockVersion + 1. A raw message the
 * fixture no longer references is unpinned unless another fixture references it.
 */
@CommandHandler(ReplaceFixtureCommand)
export class ReplaceFixtureHandler implements ICommandHandler<ReplaceFixtureCommand, FixtureResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly fixtures: FixtureRepository,
  ) {}

  async execute({ caller, flowId, fixtureId, expectedLockVersion, body }: ReplaceFixtureCommand): Promise<FixtureResponse> {
    this.fixtures.assertBodyShape(body);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    await this.fixtures.find(this.dataSource.manager, flowId, fixtureId);
    access.require(caller.permission);
    const draft = this.fixtures.draftFor(body, flow);
    return this.unitOfWork.run(async (tx) => {
      const fixture = await this.fixtures.lock(tx.manager, flowId, fixtureId, expectedLockVersion);
      const released = fixture.rawIngestionMessageId;
      await this.fixtures.lockRawMessages(tx.manager, [released, draft.raw?.rawIngestionMessageId ?? null]);
      const columns = await this.fixtures.columnsIn(tx.manager, draft, flow);
      await tx.manager.update(FlowFixtureEntity, { fixtureId }, { ...columns, lockVersion: fixture.lockVersion + 1, updatedAt: () => 'clock_timestamp()' } as QueryDeepPartialEntity<FlowFixtureEntity>);
      if (released !== columns.rawIngestionMessageId) await this.fixtures.releaseRawMessage(tx.manager, released);
      await tx.audit({
        eventType: 'flow_fixture.updated',
        action: 'update',
        entityType: 'flow_fixture',
        entityId: fixtureId,
        tenantId: flow.tenantId,
        metadata: { flowId, assertionCount: columns.assertions.length, rawIngestionMessageId: columns.rawIngestionMessageId, lockVersion: { before: fixture.lockVersion, after: fixture.lockVersion + 1 } },
      });
      return FixtureResponse.of(await this.fixtures.find(tx.manager, flowId, fixtureId));
    });
  }
}
