import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { timeOrderedId } from '../../../shared/database/time-ordered-id';
import { FlowEngine, storedUplinkInput, type JsonObject, type StoredUplink } from '../../flows/engine';
import { DeviceParameterResolver } from './device-parameter-resolver';
import { FlowExecutionStore, type StoreOptions } from '../persistence/flow-execution.store';
import { FlowVersionLoader, type PreparedFlowVersion } from './flow-version-loader';
import { failedResult, type MessageOutcome, type RoutedDevice, type RunMode } from './message-outcome';

export type { MessageOutcome, PreparedFlowVersion, RoutedDevice, RunMode, StoredUplink, StoreOptions };

/**
 * Runs stored uplinks through stored flow versions and stores what they produce: the shared core of live
 * processing and replays. `prepare` loads a version (FlowVersionLoader), `parametersFor` resolves each device's
 * parameters (DeviceParameterResolver), `run` executes one message through the engine (nothing stored) and
 * `store` writes the outcomes in the caller's transaction (FlowExecutionStore).
 */
@Injectable()
export class StoredUplinkProcessor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: FlowEngine,
    private readonly versions: FlowVersionLoader,
    private readonly parameters: DeviceParameterResolver,
    private readonly executions: FlowExecutionStore,
  ) {}

  /** See FlowVersionLoader.prepare. */
  prepare(flowVersionId: string, fieldTag?: string, manager: EntityManager = this.dataSource.manager): Promise<PreparedFlowVersion> {
    return this.versions.prepare(flowVersionId, fieldTag, manager);
  }

  /** See DeviceParameterResolver.parametersFor. */
  parametersFor(manager: EntityManager, prepared: PreparedFlowVersion, devices: readonly RoutedDevice[]): Promise<Map<string, JsonObject>> {
    return this.parameters.parametersFor(manager, prepared, devices);
  }

  /** Runs one message (nothing stored). A sandbox outage throws SandboxUnavailableError: nothing may be recorded then. */
  async run(prepared: PreparedFlowVersion, message: StoredUplink, device: RoutedDevice, parameters: JsonObject, mode: RunMode): Promise<MessageOutcome> {
    const startedAt = new Date();
    const input = storedUplinkInput(message, device, mode, parameters);
    const result = prepared.plan
      ? await this.engine.execute(prepared.plan, input, parameters, {
          mode,
          tenantId: device.tenantId,
          device: { deviceId: device.deviceId, devEui: device.devEui, name: device.name, deviceTypeId: device.deviceTypeId, metadata: device.metadata },
        })
      : failedResult(prepared.flowVersionId, 'block_unavailable', prepared.planError ?? 'The flow version cannot run.');
    return { flowExecutionId: timeOrderedId(), message, device, prepared, parameters, startedAt, result };
  }

  /** See FlowExecutionStore.store. */
  store(manager: EntityManager, outcomes: readonly MessageOutcome[], options: StoreOptions): Promise<MessageOutcome[]> {
    return this.executions.store(manager, outcomes, options);
  }
}
