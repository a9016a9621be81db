import { ApiProperty } from '@nestjs/swagger';
import { ENTITY_KEY_PATTERN } from '../../../shared/validation/fields';

/** The row a flow is answered from: the flow, its device type's name and its active version's number. */
export interface FlowView {
  flowId: string;
  tenantId: string;
  deviceTypeId: string;
  deviceTypeName: string;
  key: string;
  name: string;
  description: string;
  activeVersionId: string | null;
  activeVersionNumber: number | null;
  templateUpdate: { flowTemplateVersionId: string; versionNumber: number } | null;
  lockVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A newer released version of the flow template the active version was copied from. */
export class TemplateUpdateResponse {
  @ApiProperty({ format: 'uuid' })
  flowTemplateVersionId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;
}

/** A device type's telemetry flow. Its `lockVersion` travels only as the `ETag`. */
export class FlowResponse {
  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty()
  deviceTypeName!: string;

  @ApiProperty({ pattern: ENTITY_KEY_PATTERN.source, description: 'Unique in the tenant; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null until the first activation.' })
  activeVersionId!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null until the first activation.' })
  activeVersionNumber!: number | null;

  @ApiProperty({
    type: TemplateUpdateResponse,
    nullable: true,
    description:
      'Set when the active version was copied from a flow template that has a newer released version (the newest one); null otherwise. Upgrade: copy that version into this flow, validate it, dry-run replay it against the active version, then release and activate it.',
  })
  templateUpdate!: TemplateUpdateResponse | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  /** Not part of the body: the controller sends it as the `ETag`. */
  static lockVersionOf(view: FlowView): { lockVersion: number } {
    return { lockVersion: view.lockVersion };
  }

  static of(view: FlowView): FlowResponse {
    return {
      flowId: view.flowId,
      tenantId: view.tenantId,
      deviceTypeId: view.deviceTypeId,
      deviceTypeName: view.deviceTypeName,
      key: view.key,
      name: view.name,
      description: view.description,
      activeVersionId: view.activeVersionId,
      activeVersionNumber: view.activeVersionNumber,
      templateUpdate: view.templateUpdate,
      createdAt: view.createdAt.toISOString(),
      updatedAt: view.updatedAt.toISOString(),
    };
  }
}

/** A flow answer and the `ETag` it goes out with. */
export interface FlowResult {
  flow: FlowResponse;
  lockVersion: number;
}
