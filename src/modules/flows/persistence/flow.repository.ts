import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import { resolveResource } from '../../../shared/access/resolve-resource';
import type { Principal } from '../../../shared/auth/principal';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError } from '../../../shared/errors/domain-error';
import { FlowEntity } from './flow.entity';
import { FlowResponse, FlowResult, FlowView } from '../dto/flow.response.dto';
import { flowNotFound } from './flow-version.store';

export const flowExists = () => new ConflictError('flow_exists', 'This device type already has its flow.');
export const duplicateFlowKey = () => new ConflictError('duplicate_key', 'A flow with this key already exists in the tenant.');

/** A concurrent create that passed the checks still answers 409, never 500. */
export const FLOW_CONSTRAINTS: ConstraintErrors = { flows_device_type_id_key: flowExists, flows_tenant_id_key_key: duplicateFlowKey };

// `templateUpdate`: the newest released version of the active version's source template numbered above the source.
const VIEW_SQL = `
  SELECT f.flow_id AS "flowId", f.tenant_id AS "tenantId", f.device_type_id AS "deviceTypeId", dt.name AS "deviceTypeName",
         f.key, f.name, f.description, f.active_version_id AS "activeVersionId", v.version_number AS "activeVersionNumber",
         CASE WHEN tu.flow_template_version_id IS NULL THEN NULL
              ELSE json_build_object('flowTemplateVersionId', tu.flow_template_version_id, 'versionNumber', tu.version_number) END AS "templateUpdate",
         f.lock_version AS "lockVersion", f.created_at AS "createdAt", f.updated_at AS "updatedAt"
    FROM flows f
    JOIN device_types dt ON dt.device_type_id = f.device_type_id
    LEFT JOIN flow_versions v ON v.flow_version_id = f.active_version_id
    LEFT JOIN LATERAL (
      SELECT tv.flow_template_version_id, tv.version_number FROM flow_template_versions tv
       WHERE tv.flow_template_id = v.source_flow_template_id AND tv.status = 'released' AND tv.version_number > v.source_template_version_number
       ORDER BY tv.version_number DESC LIMIT 1
    ) tu ON true`;

export interface ResolvedFlow {
  access: TenantAccess;
  flow: FlowEntity;
}

/** Flow rows for the flows API. A flow is a tenant-node object: any effective grant in its tenant sees it. */
@Injectable()
export class FlowRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  /** The flow if its tenant is visible to the caller; otherwise exactly the 404 of a missing flow. */
  async resolve(principal: Principal, flowId: string): Promise<ResolvedFlow> {
    const { resource: flow, access } = await resolveResource(this.accessService, principal, {
      load: () => this.dataSource.manager.findOneBy(FlowEntity, { flowId }),
      notFound: flowNotFound,
    });
    return { access, flow };
  }

  async view(manager: EntityManager, flowId: string): Promise<FlowView> {
    const [row] = await manager.query<FlowView[]>(`${VIEW_SQL} WHERE f.flow_id = $1`, [flowId]);
    if (!row) throw flowNotFound();
    return { ...row, activeVersionNumber: row.activeVersionNumber === null ? null : Number(row.activeVersionNumber) };
  }

  async result(manager: EntityManager, flowId: string): Promise<FlowResult> {
    const view = await this.view(manager, flowId);
    return { flow: FlowResponse.of(view), lockVersion: view.lockVersion };
  }

  async views(manager: EntityManager, flowIds: string[]): Promise<FlowView[]> {
    if (flowIds.length === 0) return [];
    const rows = await manager.query<FlowView[]>(`${VIEW_SQL} WHERE f.flow_id = ANY($1::uuid[])`, [flowIds]);
    const byId = new Map(rows.map((row) => [row.flowId, { ...row, activeVersionNumber: row.activeVersionNumber === null ? null : Number(row.activeVersionNumber) }]));
    return flowIds.map((id) => byId.get(id)!).filter(Boolean);
  }
}
