import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { NewestFirstPageParams } from '../../../shared/pagination/newest-first-page';
import { WhenPresent } from '../../../shared/validation/fields';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { BLOCK_VERSION_STATUSES, BlockVersionStatus } from './flow-block-version.response.dto';

export const MAX_SOURCE_CODE_LENGTH = 102400;
export const MAX_NOTES_LENGTH = 2000;

/** The message the release gate runs the script on. */
export class SampleInputRequest {
  @ApiProperty({
    description: 'Any JSON value: the message payload. For a payload codec, a byte array (numbers 0..255) or a base64 string.',
    oneOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'string' }, { type: 'object' }, { type: 'number' }, { type: 'boolean' }],
  })
  @IsDefined()
  payload!: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Values already set by earlier nodes.' })
  @IsOptional()
  @IsObject()
  values?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The node configuration (a codec\'s `variables`); defaults of `configurationSchema` fill what is left out.',
  })
  @IsOptional()
  @IsObject()
  configuration?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Flow parameters (`ctx.parameters`).' })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A partial input envelope given to the script as `msg.input`, e.g. `{"connectionData": {"fPort": 2}, "observedAt": "..."}`.',
  })
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;
}

export class CreateFlowBlockVersionRequest {
  @ApiProperty({ minLength: 1, maxLength: MAX_SOURCE_CODE_LENGTH, description: 'The script: `transform(msg, ctx)`, `decodeUplink(input)` or `Decode(fPort, bytes, variables)`.' })
  @IsString()
  @Length(1, MAX_SOURCE_CODE_LENGTH)
  sourceCode!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema (draft 2020-12) of the node configuration, at most 32 KiB; only local `$ref` (`#...`).',
  })
  @IsOptional()
  @IsObject()
  configurationSchema?: Record<string, unknown>;

  @ApiProperty({ type: SampleInputRequest })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SampleInputRequest)
  sampleInput!: SampleInputRequest;

  @ApiPropertyOptional({ maxLength: MAX_NOTES_LENGTH, description: 'Default `""`.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_NOTES_LENGTH)
  notes?: string;
}

/**
 * A dry run of a version: the message is `input` (the shape of `sampleInput`) or a stored raw message of the block's
 * tenant, exactly one of the two; `configuration` and `parameters` apply to either.
 */
export class RunFlowBlockVersionRequest {
  @ApiPropertyOptional({
    type: SampleInputRequest,
    description: 'The message, shaped like `sampleInput`: `payload` (a codec takes a byte array or a base64 string), `values`, `configuration`, `parameters`, `input` (e.g. `{"connectionData": {"fPort": 2}}`). Not together with `rawIngestionMessageId`.',
  })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => SampleInputRequest)
  input?: SampleInputRequest;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A stored raw message of the block\'s tenant (any tenant for a global block): its decoded `rawPayload` is the payload, its `connectionData`, `observedAt` and receipt time the input. Not together with `input`.',
  })
  @WhenPresent()
  @IsUUID()
  rawIngestionMessageId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The node configuration (a codec\'s `variables`); defaults of `configurationSchema` when neither this nor `input.configuration` is given.',
  })
  @WhenPresent()
  @IsObject()
  configuration?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Flow parameters (`ctx.parameters`); not together with `input.parameters`.' })
  @WhenPresent()
  @IsObject()
  parameters?: Record<string, unknown>;
}

export class ListFlowBlockVersionsParams extends NewestFirstPageParams {
  @ApiPropertyOptional({ enum: BLOCK_VERSION_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...BLOCK_VERSION_STATUSES])
  status?: BlockVersionStatus;
}
