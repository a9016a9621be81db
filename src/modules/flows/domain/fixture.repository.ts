import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { assertLockVersion } from '../../../shared/concurrency/if-match';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { FlowEntity } from './flow.entity';
import { FlowFixtureEntity } from './flow-fixture.entity';
import { FixtureBody, fixtureBodyViolations, inputMismatchViolations } from './fixture-input';

export const fixtureNotFound = () => new ResourceNotFoundError('flow_fixture');

/** The stored columns of a fixture body. */
export interface FixtureColumns {
  name: string | null;
  input: Record<string, unknown>;
  rawIngestionMessageId: string | null;
  rawReceivedAt: Date | null;
  rawRetentionExtended: boolean;
  assertions: { path: string; expected: unknown }[];
}

/** Fixture rows and the fixture rules that need the flow. */
@Injectable()
export class FixtureRepository {
  /** 400 for a body that breaks the rules needing no lookup (checked before the flow's 404). */
  assertBodyShape(body: FixtureBody): void {
    const violations = fixtureBodyViolations(body);
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }

  /**
   * The columns of a valid body for `flow`: the input's tenant and device type must be the flow's. A raw
   * reference must name a stored raw message of a device of this type; there are no raw messages before
   * ingestion exists, so every reference is `reference_not_found`.
   */
  columnsFor(body: FixtureBody, flow: FlowEntity): FixtureColumns {
    if (body.input !== undefined) {
      const mismatch = inputMismatchViolations(body.input, flow.tenantId, flow.deviceTypeId);
      if (mismatch.length > 0) throw new ValidationFailedError(mismatch);
    }
    if (body.raw !== undefined) {
      throw ValidationFailedError.single('body.raw', 'reference_not_found', 'No stored raw message of a device of this type has this id and receivedAt.');
    }
    return {
      name: body.name ?? null,
      input: body.input!,
      rawIngestionMessageId: null,
      rawReceivedAt: null,
      rawRetentionExtended: false,
      assertions: (body.assertions ?? []).map(({ path, expected }) => ({ path, expected })),
    };
  }

  /** A fixture of this flow; another flow's fixture is the fixture's 404. */
  async find(manager: EntityManager, flowId: string, fixtureId: string): Promise<FlowFixtureEntity> {
    const fixture = await manager.findOneBy(FlowFixtureEntity, { fixtureId, flowId });
    if (!fixture) throw fixtureNotFound();
    return fixture;
  }

  /** The fixture locked for a change, at the version `If-Match` named (else 409). */
  async lock(manager: EntityManager, flowId: string, fixtureId: string, expectedLockVersion: number): Promise<FlowFixtureEntity> {
    const fixture = await manager.findOne(FlowFixtureEntity, { where: { fixtureId, flowId }, lock: { mode: 'pessimistic_write' } });
    if (!fixture) throw fixtureNotFound();
    assertLockVersion(fixture.lockVersion, expectedLockVersion);
    return fixture;
  }
}
