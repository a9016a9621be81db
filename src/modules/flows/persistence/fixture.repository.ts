import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { assertLockVersion } from '../../../shared/concurrency/if-match';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { RawMessagePins } from '../../ingestion';
import { storedUplinkInput, storedUplinkOf, type StoredUplinkRow } from '../engine';
import { FlowEntity } from './flow.entity';
import { FlowFixtureEntity } from './flow-fixture.entity';
import { FixtureBody, fixtureBodyViolations, inputMismatchViolations } from '../domain/fixture-input';
import { utcDateTimeOf } from '../../../shared/validation/time-window';

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

/** A valid body checked against its flow, before its raw reference (if any) is looked up. */
export interface FixtureDraft {
  name: string | null;
  /** Absent in shape 2 without input: derived from the raw message. */
  input: Record<string, unknown> | undefined;
  raw: { rawIngestionMessageId: string; receivedAt: string } | null;
  assertions: { path: string; expected: unknown }[];
}

const rawNotFound = () =>
  ValidationFailedError.single('body.raw', 'reference_not_found', 'No stored raw message of a device of this type has this id and receivedAt.');

/**
 * Fixture rows and the fixture rules that need the flow.
 *
 * A fixture referencing a raw message (shape 2) pins it: retention keeps a pinned message, and the message is
 * unpinned when the last fixture referencing it is deleted or replaced by one that does not. Every command that
 * changes a reference locks the referenced raw rows first (FOR UPDATE, in id order) and only then recomputes
 * `pinned` in a later statement, whose fresh snapshot sees every concurrent change to those references that
 * committed before the lock was granted; so two fixtures released at once never leave a message pinned (or
 * unpinned) wrongly, and retention, which deletes only unpinned rows and rechecks that under the row lock,
 * never deletes a message a fixture is being saved from. The raw rows are ingestion's: locked and pinned through
 * its RawMessagePins.
 */
@Injectable()
export class FixtureRepository {
  constructor(private readonly pins: RawMessagePins) {}

  /** 400 for a body that breaks the rules needing no lookup (checked before the flow's 404). */
  assertBodyShape(body: FixtureBody): void {
    const violations = fixtureBodyViolations(body);
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }

  /** The rules needing the flow but no lookup: a given input's tenant and device type must be the flow's. */
  draftFor(body: FixtureBody, flow: FlowEntity): FixtureDraft {
    if (body.input !== undefined) {
      const mismatch = inputMismatchViolations(body.input, flow.tenantId, flow.deviceTypeId);
      if (mismatch.length > 0) throw new ValidationFailedError(mismatch);
    }
    return {
      name: body.name ?? null,
      input: body.input,
      raw: body.raw === undefined ? null : { rawIngestionMessageId: String(body.raw.rawIngestionMessageId), receivedAt: String(body.raw.receivedAt) },
      assertions: (body.assertions ?? []).map(({ path, expected }) => ({ path, expected })),
    };
  }

  /**
   * The stored columns of `draft`, in the command's transaction. A raw reference must name a stored raw message
   * (that id received at that instant) routed to a device of the flow's type in the flow's tenant, else 400
   * `reference_not_found`; the message is locked and pinned. Without `input`, the input is the message's:
   * its payload, `observedAt` (else its receipt time), `rawReceivedAt`, device, correlation id (else a new one)
   * and connection data, with no parameters.
   */
  async columnsIn(manager: EntityManager, draft: FixtureDraft, flow: FlowEntity): Promise<FixtureColumns> {
    const columns = { name: draft.name, assertions: draft.assertions };
    if (draft.raw === null) {
      return { ...columns, input: draft.input!, rawIngestionMessageId: null, rawReceivedAt: null, rawRetentionExtended: false };
    }
    const { rawIngestionMessageId } = draft.raw;
    await this.lockRawMessages(manager, [rawIngestionMessageId]);
    const pinned = await this.pins.pin(manager, { rawIngestionMessageId, receivedAt: utcDateTimeOf(draft.raw.receivedAt) ?? draft.raw.receivedAt, tenantId: flow.tenantId, deviceTypeId: flow.deviceTypeId });
    const row = pinned as (StoredUplinkRow & { device_id: string }) | null;
    if (!row) throw rawNotFound();
    const input = draft.input ?? storedUplinkInput(storedUplinkOf(row), { tenantId: flow.tenantId, deviceId: row.device_id, deviceTypeId: flow.deviceTypeId }, 'fixture', {});
    return { ...columns, input, rawIngestionMessageId, rawReceivedAt: row.received_at, rawRetentionExtended: true };
  }

  /**
   * Locks the raw messages a command is about to reference or release, in id order so two commands never wait
   * on each other crosswise. Must precede `releaseRawMessage` in the same transaction.
   */
  lockRawMessages(manager: EntityManager, ids: (string | null)[]): Promise<void> {
    return this.pins.lock(manager, ids);
  }

  /** After a reference to the (locked) message is gone: pinned exactly while another fixture still references it. */
  async releaseRawMessage(manager: EntityManager, rawIngestionMessageId: string | null): Promise<void> {
    if (rawIngestionMessageId === null) return;
    const referenced = await manager.existsBy(FlowFixtureEntity, { rawIngestionMessageId });
    await this.pins.setPinned(manager, rawIngestionMessageId, referenced);
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
