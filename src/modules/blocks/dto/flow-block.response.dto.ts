import { ApiProperty } from '@nestjs/swagger';
import { FLOW_BLOCK_SCOPES, FlowBlockEntity, FlowBlockScope } from '../persistence/flow-block.entity';

export const FLOW_BLOCK_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** A custom block (never its sources or artifacts: those live on its versions). */
export class FlowBlockResponse {
  @ApiProperty({ format: 'uuid' })
  flowBlockId!: string;

  @ApiProperty({ enum: FLOW_BLOCK_SCOPES, description: '`global`: every tenant may use it, platform administrators write it.' })
  scope!: FlowBlockScope;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for a global block.' })
  tenantId!: string | null;

  @ApiProperty({ pattern: FLOW_BLOCK_KEY_PATTERN.source, description: 'Unique among the global blocks, or within the tenant; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, description: 'Number of the newest version; null before the first one.' })
  latestVersionNumber!: number | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(block: FlowBlockEntity, latestVersionNumber: number | null): FlowBlockResponse {
    return {
      flowBlockId: block.flowBlockId,
      scope: block.scope,
      tenantId: block.tenantId,
      key: block.key,
      name: block.name,
      description: block.description,
      latestVersionNumber,
      createdAt: block.createdAt.toISOString(),
      updatedAt: block.updatedAt.toISOString(),
    };
  }
}
