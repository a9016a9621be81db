import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FixtureRepository } from '../persistence/fixture.repository';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { DeleteFixtureCommand } from './delete-fixture.command';

/** Deletes a fixture at the lockVersion `If-Match` names; its raw message stays pinned only while another fixture references it. */
@CommandHandler(DeleteFixtureCommand)
export class DeleteFixtureHandler implements ICommandHandler<DeleteFixtureCommand, void> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly fixtures: FixtureRepository,
  ) {}

  async execute({ caller, flowId, fixtureId, expectedLockVersion }: DeleteFixtureCommand): Promise<void> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    await this.fixtures.find(this.dataSource.manager, flowId, fixtureId);
    access.require(caller.permission);
    await this.unitOfWork.run(async (tx) => {
      const fixture = await this.fixtures.lock(tx.manager, flowId, fixtureId, expectedLockVersion);
      await this.fixtures.lockRawMessages(tx.manager, [fixture.rawIngestionMessageId]);
      await tx.manager.delete(FlowFixtureEntity, { fixtureId });
      await this.fixtures.releaseRawMessage(tx.manager, fixture.rawIngestionMessageId);
      await tx.audit({
        eventType: 'flow_fixture.deleted',
        action: 'delete',
        entityType: 'flow_fixture',
        entityId: fixtureId,
        tenantId: flow.tenantId,
        metadata: { flowId, name: fixture.name, lockVersion: fixture.lockVersion },
      });
    });
  }
}
