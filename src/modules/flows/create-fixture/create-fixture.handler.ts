import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FixtureRepository } from '../persistence/fixture.repository';
import { FixtureResponse } from '../dto/fixture.response.dto';
import { MAX_FIXTURES_PER_FLOW } from '../domain/fixture-input';
import { FlowEntity } from '../persistence/flow.entity';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { flowNotFound } from '../persistence/flow-version.store';
import { CreateFixtureCommand } from './create-fixture.command';

/**
 * A new fixture of the flow; at most 100 per flow, counted under the flow's row lock so parallel creates cannot pass it.
 * A fixture saved from a raw message pins the message.
 */
@CommandHandler(CreateFixtureCommand)
export class CreateFixtureHandler implements ICommandHandler<CreateFixtureCommand, FixtureResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly fixtures: FixtureRepository,
  ) {}

  async execute({ caller, flowId, body }: CreateFixtureCommand): Promise<FixtureResponse> {
    this.fixtures.assertBodyShape(body);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const draft = this.fixtures.draftFor(body, flow);
    return this.unitOfWork.run(async (tx) => {
      if (!(await tx.manager.findOne(FlowEntity, { where: { flowId }, lock: { mode: 'pessimistic_write' } }))) throw flowNotFound();
      const count = await tx.manager.countBy(FlowFixtureEntity, { flowId });
      if (count >= MAX_FIXTURES_PER_FLOW) {
        throw new ConflictError('max_fixtures', `A flow has at most ${MAX_FIXTURES_PER_FLOW} fixtures; delete one first.`);
      }
      const columns = await this.fixtures.columnsIn(tx.manager, draft, flow);
      const fixtureId = randomUUID();
      await tx.manager.insert(FlowFixtureEntity, { fixtureId, flowId, tenantId: flow.tenantId, ...columns } as QueryDeepPartialEntity<FlowFixtureEntity>);
      await tx.audit({
        eventType: 'flow_fixture.created',
        action: 'create',
        entityType: 'flow_fixture',
        entityId: fixtureId,
        tenantId: flow.tenantId,
        metadata: { flowId, name: columns.name, assertionCount: columns.assertions.length, rawIngestionMessageId: columns.rawIngestionMessageId },
      });
      return FixtureResponse.of(await this.fixtures.find(tx.manager, flowId, fixtureId));
    });
  }
}
