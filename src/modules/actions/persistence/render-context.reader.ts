import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { resolveDeviceSql } from '../../devices';
import { readFlowExecutionOutputs } from '../../processing';
import { OrganizationUnitEntity, TenantEntity } from '../../tenancy';
import type { RenderContextSource } from '../domain/delivery-ports';
import type { EmailRenderContext } from '../domain/template-syntax';

interface DeviceRow {
  tenantId: string;
  devEui: string;
  name: string;
  metadata: Record<string, string> | null;
  organization_unit_id: string | null;
}

/**
 * The render context of a flow execution: its values (current and time series merged), `observedAt` and the
 * parameters it ran with as the execution recorded them; the tenant's, device's, current unit's and flow's names as
 * they are now. Null when the execution is not the tenant's (or retention removed it).
 */
@Injectable()
export class ExecutionRenderContextReader implements RenderContextSource {
  async forExecution(manager: EntityManager, tenantId: string, flowExecutionId: string): Promise<EmailRenderContext | null> {
    const execution = await readFlowExecutionOutputs(manager, tenantId, flowExecutionId);
    if (!execution) return null;
    const [device] = await manager.query<DeviceRow[]>(resolveDeviceSql(), [execution.deviceId]);
    const tenant = await manager.findOne(TenantEntity, { where: { tenantId }, select: { tenantId: true, name: true } });
    const unit = device?.organization_unit_id
      ? await manager.findOne(OrganizationUnitEntity, {
          where: { organizationUnitId: device.organization_unit_id },
          select: { organizationUnitId: true, name: true, key: true },
        })
      : null;
    return {
      tenant: { name: tenant?.name ?? '' },
      device: { name: device?.name ?? null, devEui: device?.devEui ?? null, metadata: device?.metadata ?? {} },
      organizationUnit: unit ? { name: unit.name, key: unit.key } : null,
      values: execution.values,
      observedAt: execution.observedAt.toISOString(),
      flow: { name: execution.flowName },
      parameters: execution.parameters,
    };
  }
}
