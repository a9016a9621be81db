import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { NewestFirstPageParams } from '../../../shared/pagination/newest-first-page';
import type { VersionStatus } from '../../../shared/versioning/version-store';
import type { FlowGraph, ParameterDeclaration } from '../../flows';

/**
 * A new template draft. The graph and the declarations are checked by the flows' save rules (paths under
 * `body.graph` and `body.parameters`), with `deviceTypeId` null.
 */
export class CreateFlowTemplateVersionRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '`flow-graph.v2` as in a flow version, with `deviceTypeId` **null** (a template belongs to no device type): `schemaVersion` `"flow-graph.v2"`, `nodes` (2..102; exactly one `current-output` and one `timeseries-output`; block nodes with built-in blocks or released global custom block versions), `edges` (≤ 500).',
  })
  @IsDefined()
  @IsObject()
  graph!: FlowGraph;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: '≤ 50 × {`key` `^[a-zA-Z][a-zA-Z0-9_]{0,63}$` unique, `type` (`number`, `string`, `boolean`, `json`), `defaultValue` (typed or null), `description` ≤ 500}. Default `[]`.',
  })
  @IsOptional()
  @IsArray()
  parameters?: ParameterDeclaration[];
}

export class ListFlowTemplateVersionsParams extends NewestFirstPageParams {
  @ApiPropertyOptional({ enum: ['draft', 'released', 'deprecated'] })
  @IsOptional()
  @IsString()
  @IsIn(['draft', 'released', 'deprecated'])
  status?: VersionStatus;
}
