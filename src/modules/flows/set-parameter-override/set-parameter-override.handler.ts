import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowParameterOverrideEntity } from '../persistence/flow-parameter-override.entity';
import { deviceNotFound, ParameterOverrideRepository } from '../persistence/parameter-override.repository';
import { ParameterOverrideResponse } from '../dto/parameter-override.response.dto';
import { SetParameterOverrideCommand } from './set-parameter-override.command';

/**
 * Upserts an override. A tenant-level value applies to every flow of the tenant declaring the key; a device-type
 * value to this flow; a device value to one device of the flow's type. The key must be declared by some version
 * of this flow, and the value must have the type of its newest declaration.
 */
@CommandHandler(SetParameterOverrideCommand)
export class SetParameterOverrideHandler implements ICommandHandler<SetParameterOverrideCommand, ParameterOverrideResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly overrides: ParameterOverrideRepository,
  ) {}

  async execute({ caller, flowId, target, key, body }: SetParameterOverrideCommand): Promise<ParameterOverrideResponse> {
    if (!('value' in body) || body.value === undefined) throw ValidationFailedError.single('body.value', 'required', 'Required (null is a value).');
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    if (target.deviceId !== null && !(await this.overrides.deviceOfFlow(flow, target.deviceId))) throw deviceNotFound();
    access.require(caller.permission);
    const deviceTypeId = target.level === 'tenant' ? null : flow.deviceTypeId;
    return this.unitOfWork.run(async (tx) => {
      await this.overrides.assertSettable(tx.manager, flowId, key, body.value);
      const [row] = await tx.manager.query<{ parameter_override_id: string; created: boolean }[]>(
        `INSERT INTO flow_parameter_overrides (tenant_id, level, device_type_id, device_id, key, value)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb)
         ON CONFLICT ON CONSTRAINT flow_parameter_overrides_target_key
           DO UPDATE SET value = EXCLUDED.value, updated_at = clock_timestamp()
         RETURNING parameter_override_id, (xmax = 0) AS created`,
        [flow.tenantId, target.level, deviceTypeId, target.deviceId, key, JSON.stringify(body.value)],
      );
      await tx.audit({
        eventType: 'flow_parameter_override.set',
        action: 'set',
        entityType: 'flow_parameter_override',
        entityId: row.parameter_override_id,
        tenantId: flow.tenantId,
        metadata: { flowId, level: target.level, deviceTypeId, deviceId: target.deviceId, key, created: row.created },
      });
      const saved = await tx.manager.findOneByOrFail(FlowParameterOverrideEntity, { parameterOverrideId: row.parameter_override_id });
      return ParameterOverrideResponse.of(saved);
    });
  }
}
