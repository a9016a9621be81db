import { ApiProperty } from '@nestjs/swagger';
import type { VersionRecord, VersionStatus } from '../../../shared/versioning/version-store';
import { ValidationIssueResponse } from '../../flows';
import type { FlowGraph, ParameterDeclaration } from '../../flows';
import { RequiredFieldResponse } from './flow-template.response.dto';

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** An immutable version of a flow template: a graph without a device type, and its parameter declarations. */
export class FlowTemplateVersionResponse {
  @ApiProperty({ format: 'uuid' })
  flowTemplateVersionId!: string;

  @ApiProperty({ format: 'uuid' })
  flowTemplateId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ enum: ['draft', 'released', 'deprecated'], description: 'Only a `released` version can be copied into a flow.' })
  status!: VersionStatus;

  @ApiProperty({ type: 'object', additionalProperties: true, description: '`flow-graph.v2` with `deviceTypeId` null.' })
  graph!: FlowGraph;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Declarations (≤ 50): `key`, `type` (`number`, `string`, `boolean`, `json`), `defaultValue` (typed or null), `description`.',
  })
  parameters!: ParameterDeclaration[];

  @ApiProperty({
    type: [RequiredFieldResponse],
    nullable: true,
    description: 'Set on release: the fields the output nodes write (`key`, `schemaRef`, `storageTargets`), which the device type of a flow needs.',
  })
  requiredFields!: RequiredFieldResponse[] | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[0-9a-f]{64}$', description: 'Set on release: SHA-256 (lowercase hex) of the RFC 8785 canonical JSON of {graph, parameters}, exactly as a flow version’s.' })
  checksum!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  releasedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  deprecatedAt!: string | null;

  static of(version: VersionRecord): FlowTemplateVersionResponse {
    const row = version.row;
    return {
      flowTemplateVersionId: version.versionId,
      flowTemplateId: version.parentId,
      versionNumber: version.versionNumber,
      status: version.status,
      graph: row.graph as FlowGraph,
      parameters: row.parameters as ParameterDeclaration[],
      requiredFields: (row.required_fields as RequiredFieldResponse[] | null) ?? null,
      checksum: (row.checksum as string | null) ?? null,
      createdAt: iso(row.created_at)!,
      releasedAt: iso(row.released_at),
      deprecatedAt: iso(row.deprecated_at),
    };
  }
}

/** The compile report of a template version against the current global block catalog. */
export class FlowTemplateValidationReport {
  @ApiProperty({ format: 'uuid' })
  flowTemplateVersionId!: string;

  @ApiProperty({ description: 'No issue of severity `error`.' })
  valid!: boolean;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'What the release would record: SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}.' })
  checksum!: string;

  @ApiProperty({ type: [RequiredFieldResponse], description: 'The fields the output nodes write, as the release would record them.' })
  requiredFields!: RequiredFieldResponse[];

  @ApiProperty({ type: [ValidationIssueResponse] })
  issues!: ValidationIssueResponse[];
}
