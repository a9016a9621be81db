import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsDefined, IsObject, IsOptional } from 'class-validator';
import type { FlowGraph, ParameterDeclaration } from '../domain/graph/flow-graph';

/**
 * A new draft. The graph and the declarations are checked by the save rules (paths under `body.graph` and
 * `body.parameters`), not field by field here.
 */
export class CreateFlowVersionRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '`flow-graph.v2`: `schemaVersion` `"flow-graph.v2"`, `deviceTypeId` (the flow\'s), `nodes` (2..102; exactly one `current-output` and one `timeseries-output`; `nodeId` 1..120 unique, `name` 1..200, `block` (null on outputs; `{type:"builtin",key,version}` or `{type:"custom",flowBlockVersionId}`), `configuration` ≤ 32 KiB, `position` {x, y}), `edges` (≤ 500 × {`fromNodeId`, `fromPort` (default `out`), `toNodeId`}).',
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
