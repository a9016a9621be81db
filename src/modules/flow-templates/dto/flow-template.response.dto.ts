import { ApiProperty } from '@nestjs/swagger';
import type { RequiredField } from '../../flows';
import type { FlowTemplateEntity } from '../persistence/flow-template.entity';

/** The newest released version of a template, as the catalog shows it. */
export interface LatestRelease {
  flowTemplateVersionId: string;
  versionNumber: number;
  requiredFields: RequiredField[];
}

export const FLOW_TEMPLATE_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** A field the outputs of a template version write: a device type needs it for a copy to release. */
export class RequiredFieldResponse {
  @ApiProperty({ description: 'The field key the outputs write.' })
  key!: string;

  @ApiProperty({ example: 'platform://schemas/number/v1' })
  schemaRef!: string;

  @ApiProperty({ type: [String], enum: ['current', 'timeseries'], description: 'The outputs that write it.' })
  storageTargets!: ('current' | 'timeseries')[];
}

/** A flow template with its newest version number and its newest released version (the catalog entry). */
export class FlowTemplateResponse {
  @ApiProperty({ format: 'uuid' })
  flowTemplateId!: string;

  @ApiProperty({ pattern: FLOW_TEMPLATE_KEY_PATTERN.source, description: 'Unique among the flow templates; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, description: 'Number of the newest version (any status); null before the first one.' })
  latestVersionNumber!: number | null;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The newest `released` version, the one to copy; null when none is released.' })
  latestReleasedVersionId!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1 })
  latestReleasedVersionNumber!: number | null;

  @ApiProperty({
    type: [RequiredFieldResponse],
    nullable: true,
    description: 'The fields the newest released version writes (what a device type needs); null when none is released.',
  })
  requiredFields!: RequiredFieldResponse[] | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(template: FlowTemplateEntity, summary: { latestVersionNumber: number | null; latestRelease: LatestRelease | null }): FlowTemplateResponse {
    return {
      flowTemplateId: template.flowTemplateId,
      key: template.key,
      name: template.name,
      description: template.description,
      latestVersionNumber: summary.latestVersionNumber,
      latestReleasedVersionId: summary.latestRelease?.flowTemplateVersionId ?? null,
      latestReleasedVersionNumber: summary.latestRelease?.versionNumber ?? null,
      requiredFields: summary.latestRelease?.requiredFields ?? null,
      createdAt: template.createdAt.toISOString(),
      updatedAt: template.updatedAt.toISOString(),
    };
  }
}
