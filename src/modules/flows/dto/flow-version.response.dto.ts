import { ApiProperty } from '@nestjs/swagger';
import type { VersionRecord, VersionStatus } from '../../../shared/versioning/version-store';
import type { FlowGraph, ParameterDeclaration } from '../domain/graph/flow-graph';

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** The flow template version a flow version was copied from. */
export class SourceTemplateResponse {
  @ApiProperty({ format: 'uuid' })
  flowTemplateId!: string;

  @ApiProperty({ format: 'uuid' })
  flowTemplateVersionId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;
}

/** An immutable version of a flow's graph and parameter declarations. */
export class FlowVersionResponse {
  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ enum: ['draft', 'released', 'deprecated'] })
  status!: VersionStatus;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`flow-graph.v2`: `schemaVersion`, `deviceTypeId`, `nodes` (2..102: one `current-output`, one `timeseries-output`, block nodes), `edges` (≤ 500).',
  })
  graph!: FlowGraph;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Declarations (≤ 50): `key`, `type` (`number`, `string`, `boolean`, `json`), `defaultValue` (typed or null), `description`.',
  })
  parameters!: ParameterDeclaration[];

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (lowercase hex) of the RFC 8785 canonical JSON of {graph, parameters}; set on release.' })
  checksum!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  releasedAt!: string | null;

  @ApiProperty({
    type: SourceTemplateResponse,
    nullable: true,
    description: 'The flow template version this version was copied from (`POST /v1/flow-templates/{id}/versions/{vid}/copy`); null for a version saved directly.',
  })
  sourceTemplate!: SourceTemplateResponse | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  static of(version: VersionRecord): FlowVersionResponse {
    const row = version.row;
    return {
      flowVersionId: version.versionId,
      flowId: version.parentId,
      tenantId: String(row.tenant_id),
      versionNumber: version.versionNumber,
      status: version.status,
      graph: row.graph as FlowGraph,
      parameters: row.parameters as ParameterDeclaration[],
      checksum: (row.checksum as string | null) ?? null,
      releasedAt: iso(row.released_at),
      sourceTemplate:
        row.source_flow_template_version_id === null || row.source_flow_template_version_id === undefined
          ? null
          : {
              flowTemplateId: String(row.source_flow_template_id),
              flowTemplateVersionId: String(row.source_flow_template_version_id),
              versionNumber: Number(row.source_template_version_number),
            },
      createdAt: iso(row.created_at)!,
    };
  }
}
