import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCRIPT_CONTRACTS, ScriptContract } from '../../sandbox';
import { FLOW_BLOCK_SCOPES, FlowBlockScope } from '../persistence/flow-block.entity';

export class CatalogBlockVersion {
  @ApiProperty({ format: 'uuid', description: 'Use it as `{"type": "custom", "flowBlockVersionId": ...}` in a graph node.' })
  flowBlockVersionId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ enum: SCRIPT_CONTRACTS })
  scriptContract!: ScriptContract;

  @ApiProperty({ type: [String], example: ['out'] })
  ports!: string[];

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  configurationSchema!: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' })
  releasedAt!: string;
}

export class CatalogItem {
  @ApiProperty({ enum: ['builtin', 'custom'], description: 'The `block.type` a graph node uses for it.' })
  type!: 'builtin' | 'custom';

  @ApiProperty()
  key!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Built-ins: the version to name in a graph node.' })
  version?: number;

  @ApiPropertyOptional({ type: [String], description: 'Built-ins: output ports (empty: the block ends a path).' })
  ports?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Built-ins: JSON Schema (draft 2020-12) of the configuration.' })
  configurationSchema?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', description: 'Custom blocks.' })
  flowBlockId?: string;

  @ApiPropertyOptional({ enum: FLOW_BLOCK_SCOPES, description: 'Custom blocks.' })
  scope?: FlowBlockScope;

  @ApiPropertyOptional({ type: [CatalogBlockVersion], description: 'Custom blocks: the released versions, newest first.' })
  versions?: CatalogBlockVersion[];
}

export class FlowBlockCatalog {
  @ApiProperty({ type: [CatalogItem] })
  items!: CatalogItem[];
}
